import { and, eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import { type Conversation, conversations } from "@/db/schema";
import type { RequestContext, UserContext } from "@/lib/auth/context";
import { getEnv } from "@/lib/env";
import { ValidationError } from "@/lib/errors";
import { parseInput } from "@/lib/validation";
import { organizationModelList } from "./model-lists";
import { modelNameSchema } from "./model-name";
import { organizationTextOnlyModels } from "./text-only-models";

/** The model an agent answers with when the conversation chose none. */
export const agentModelName = (agentModel: string | null) => agentModel ?? getEnv().CHAT_MODEL;

const chatModels = organizationModelList("chatModels", {
  setting: "Chat models",
  tooMany: "Allow at most 100 models.",
});

/** The models the organization lets its members choose in a conversation, besides each agent's own. */
export const organizationChatModels = chatModels.read;

/** Sets which models of the configured endpoint the organization's members may choose; owners and admins only. */
export const setOrganizationChatModels = chatModels.set;

/** The models a conversation may use, the agent's first, the one it uses now, and those that take no images. */
export interface ConversationModels {
  agentDefault: string;
  models: string[];
  chosen: string;
  textOnly: string[];
}

/** The models a conversation with this agent may use: the agent's first, then the organization's others. */
export async function modelChoices(db: Database, ctx: RequestContext, agentModel: string | null) {
  const agentDefault = agentModelName(agentModel);
  const allowed = await organizationChatModels(db, ctx);
  return { agentDefault, models: [agentDefault, ...allowed.filter((model) => model !== agentDefault)] };
}

/**
 * The model a turn answers with: the one the user chose (named by the browser, checked here), or the agent's.
 * A model the organization does not allow is refused, so a forged or outdated choice never reaches the endpoint.
 */
export async function resolveConversationModel(
  db: Database,
  ctx: RequestContext,
  conversation: Pick<Conversation, "model">,
  agentModel: string | null,
  requested?: string | null,
): Promise<string> {
  const wanted = requested === undefined ? conversation.model : requested;
  const { agentDefault, models } = await modelChoices(db, ctx, agentModel);
  if (wanted === null || wanted === agentDefault) return agentDefault;
  if (!models.includes(wanted))
    throw new ValidationError(
      `Your organization does not allow the model "${wanted}". Choose one of: ${models.join(", ")}.`,
    );
  return wanted;
}

/** Stores the model the user chose for one of their conversations (null: the agent's), once it is allowed. */
export async function chooseConversationModel(
  db: Database,
  ctx: UserContext,
  conversation: Conversation,
  agentModel: string | null,
  input: unknown,
): Promise<string> {
  const requested = parseInput(modelNameSchema.nullable(), input);
  const model = await resolveConversationModel(db, ctx, conversation, agentModel, requested);
  const stored = model === agentModelName(agentModel) ? null : model;
  if (stored !== conversation.model)
    await db
      .update(conversations)
      .set({ model: stored })
      .where(
        and(
          eq(conversations.id, conversation.id),
          eq(conversations.organizationId, ctx.orgId),
          eq(conversations.userId, ctx.userId),
        ),
      );
  return model;
}

/** What the conversation's header offers; a stored choice the organization no longer allows shows the agent's. */
export async function conversationModels(
  db: Database,
  ctx: RequestContext,
  conversation: Pick<Conversation, "model">,
  agentModel: string | null,
): Promise<ConversationModels> {
  const [{ agentDefault, models }, textOnly] = await Promise.all([
    modelChoices(db, ctx, agentModel),
    organizationTextOnlyModels(db, ctx),
  ]);
  const chosen =
    conversation.model && models.includes(conversation.model) ? conversation.model : agentDefault;
  return { agentDefault, models, chosen, textOnly: models.filter((model) => textOnly.includes(model)) };
}
