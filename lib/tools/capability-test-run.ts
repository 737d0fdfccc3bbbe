import { z } from "zod";
import type { Database } from "@/db/client";
import { type RequestContext, requireAdmin } from "@/lib/auth/context";
import { capabilityInputSchema } from "@/lib/capabilities/names";
import type { SandboxResult } from "@/lib/capabilities/sandbox";
import { getCapability } from "@/lib/capabilities/store";
import { capabilityToolName } from "@/lib/capabilities/tool-name";
import { parseInput } from "@/lib/validation";
import { invokeTool } from "./catalog";
import { breaksOutputSchema } from "./types";

const testRunSchema = z.object({
  /** The stored capability the editor shows, if it was saved before. */
  id: z.string().nullish(),
  args: z.record(z.string(), z.unknown(), { error: "The arguments must be a JSON object." }),
});

type SandboxFailure = Extract<SandboxResult, { ok: false }>;

/** A test run as the editor's panel shows it: the sandbox run, or its result refused by the output schema. */
export type TestRunResult =
  | SandboxResult
  | (Omit<SandboxFailure, "error"> & { error: { kind: "output_schema"; message: string } });

/**
 * Runs the capability as it stands in the editor, saved or not, through the catalog like any call of the tool: the
 * draft (its namespace, action, description, parameters and output schemas and code) stands in for what is
 * stored, the arguments are checked against the draft's schema first (the same "Invalid params: ..." as REST
 * gives), its result against the draft's output schema after (the catalog's own check, as for a saved call), and
 * the call is recorded with surface "test-run" without counting as a use of the stored capability. Answers the
 * sandbox run itself: value or error, logs, duration and tool calls, which the editor's test panel shows.
 */
export async function testRunCapability(
  db: Database,
  ctx: RequestContext,
  input: unknown,
  { signal }: { signal?: AbortSignal } = {},
): Promise<TestRunResult> {
  requireAdmin(ctx);
  const draft = parseInput(capabilityInputSchema, input);
  const { id, args } = parseInput(testRunSchema, input);
  const stored = id ? await getCapability(db, ctx, id) : undefined;
  const name = capabilityToolName(draft.namespace, draft.action);
  let run: SandboxResult | undefined;
  const result = await invokeTool(db, ctx, name, args, {
    surface: "test-run",
    signal,
    scope: { draft: { ...draft, id: stored?.id, onRun: (result) => (run = result) } },
  });
  // The catalog lists a draft before anything else under its name, so the run is the draft's.
  if (!run) throw new Error(`the draft ${name} did not run`);
  if (run.ok && breaksOutputSchema(result))
    return {
      ok: false,
      error: { kind: "output_schema", message: result.errorMessage ?? "" },
      logs: run.logs,
      durationMs: run.durationMs,
      toolCalls: run.toolCalls,
    };
  return run;
}
