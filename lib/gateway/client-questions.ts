import {
  CreateMessageResultSchema,
  ElicitResultSchema,
  ListRootsResultSchema,
} from "@modelcontextprotocol/core";
import type { CallRelay } from "./endpoint";
import { asUpstreamAnswer } from "./upstream-bridge";

export type QuestionMethod = "elicitation/create" | "sampling/createMessage" | "roots/list";

const answerSchemas = {
  "elicitation/create": ElicitResultSchema,
  "sampling/createMessage": CreateMessageResultSchema,
  "roots/list": ListRootsResultSchema,
};

/** What a client's answer to a question of this kind must be. */
export const answerSchemaOf = (method: QuestionMethod) => answerSchemas[method];

/** Puts one question to the client and gives its answer (checked by whoever asks); `name`: the server's for it. */
export type AskClient = (
  method: QuestionMethod,
  params: Record<string, unknown>,
  signal: AbortSignal,
  name?: string,
) => Promise<unknown>;

/**
 * The questions of an upstream server a client takes, by the capabilities it declared: elicitation (only the modes
 * it names; none named means forms), sampling and its roots. The others are left out, so the upstream server is
 * told the client cannot take them.
 */
export function clientQuestions(
  capabilities: Record<string, unknown>,
  ask: AskClient,
): Pick<CallRelay, "elicit" | "createMessage" | "listRoots"> {
  const elicitation = capabilities.elicitation as { form?: object; url?: object } | undefined;
  return {
    elicit: elicitation
      ? async (params, signal, name) => {
          const mode = params.mode ?? "form";
          const modes = elicitation.form || elicitation.url ? elicitation : { form: {} };
          if (!(mode in modes)) throw new Error(`The client does not take ${mode} elicitation requests.`);
          return asUpstreamAnswer(
            (await ask("elicitation/create", params as Record<string, unknown>, signal, name)) as object,
          );
        }
      : undefined,
    createMessage: capabilities.sampling
      ? async (params, signal, name) =>
          asUpstreamAnswer(
            (await ask("sampling/createMessage", params as Record<string, unknown>, signal, name)) as object,
          )
      : undefined,
    listRoots: capabilities.roots
      ? async (signal, name) => asUpstreamAnswer((await ask("roots/list", {}, signal, name)) as object)
      : undefined,
  };
}
