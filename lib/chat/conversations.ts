import type { UIMessage } from "ai";
import { and, asc, desc, eq, ilike, or, sql } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "@/db/client";
import {
  agents,
  type Conversation,
  type ConversationDiscovery,
  chatMessages,
  conversations,
} from "@/db/schema";
import type { UserContext } from "@/lib/auth/context";
import { NotFoundError, ValidationError } from "@/lib/errors";
import { logger } from "@/lib/logger";
import { isUuid, parseInput } from "@/lib/validation";
import { answerMetadata } from "./answer-metadata";
import { deleteGoneChatFileObjects } from "./file-store/deleted-objects";
import {
  branchEnd,
  type ConversationBranches,
  messageTree,
  pathTo,
  shownPath,
  versionsOf,
} from "./message-tree";

/** What a conversation's start found, as stored with it. */
export type { ConversationDiscovery };

/** A row of the conversation list. */
export interface ConversationListItem {
  id: string;
  title: string;
  agentName: string | null;
  updatedAt: Date;
  /** When the user pinned it to the top of the list; null when not pinned. */
  pinnedAt: Date | null;
}

const hasMessages = sql`exists (select 1 from ${chatMessages} where ${chatMessages.conversationId} = ${conversations.id})`;

// In LIKE patterns, % and _ are wildcards and backslash escapes: what the user typed is matched literally.
const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

/** Conversations whose title, or the text of one of their messages, contains `pattern` (an ILIKE pattern). */
const titleOrTextMatches = (pattern: string) =>
  or(
    ilike(conversations.title, pattern),
    // Only what was written (text parts), not the JSON around it or tool calls' arguments.
    sql`exists (select 1 from ${chatMessages}, jsonb_array_elements(${chatMessages.parts}) as part
      where ${chatMessages.conversationId} = ${conversations.id}
        and part->>'type' = 'text' and part->>'text' ilike ${pattern})`,
  );

/**
 * The user's conversations in the active organization that hold at least one message, pinned ones first, then
 * newest first, with their agent's name; `search` keeps those whose title or message text contains it (any case).
 */
export function listConversations(
  db: Database,
  ctx: UserContext,
  { search }: { search?: string } = {},
): Promise<ConversationListItem[]> {
  const term = search?.trim();
  return db
    .select({
      id: conversations.id,
      title: conversations.title,
      agentName: agents.name,
      updatedAt: conversations.updatedAt,
      pinnedAt: conversations.pinnedAt,
    })
    .from(conversations)
    .leftJoin(agents, eq(agents.id, conversations.agentId))
    .where(
      and(
        eq(conversations.organizationId, ctx.orgId),
        eq(conversations.userId, ctx.userId),
        hasMessages,
        term ? titleOrTextMatches(`%${likeEscaped(term)}%`) : undefined,
      ),
    )
    .orderBy(sql`${conversations.pinnedAt} desc nulls last`, desc(conversations.updatedAt))
    .limit(100);
}

/**
 * A conversation to start with the agent: the user's conversation with that agent that never got a message,
 * set back to new, if there is one; so "New conversation" clicked again and again stores one empty
 * conversation at most.
 */
export async function startConversation(
  db: Database,
  ctx: UserContext,
  agentId: string,
): Promise<Conversation> {
  const [empty] = await db
    .select({ id: conversations.id })
    .from(conversations)
    .where(
      and(
        eq(conversations.organizationId, ctx.orgId),
        eq(conversations.userId, ctx.userId),
        eq(conversations.agentId, agentId),
        sql`not ${hasMessages}`,
      ),
    )
    .orderBy(desc(conversations.createdAt))
    .limit(1);
  if (!empty) return createConversation(db, ctx, agentId);
  const [row] = await db
    .update(conversations)
    .set({
      title: "New conversation",
      discovery: null,
      disabledIntegrationIds: [],
      disabledTools: [],
      approvedTools: [],
      pinnedAt: null,
      shownMessageId: null,
      createdAt: new Date(),
      updatedAt: new Date(),
    })
    .where(eq(conversations.id, empty.id))
    .returning();
  return row ?? createConversation(db, ctx, agentId);
}

/** One conversation of the user in the active organization; anyone else's is not found. */
export async function getConversation(db: Database, ctx: UserContext, id: string): Promise<Conversation> {
  if (!isUuid(id)) throw new NotFoundError("That conversation");
  const [row] = await db
    .select()
    .from(conversations)
    .where(
      and(
        eq(conversations.id, id),
        eq(conversations.organizationId, ctx.orgId),
        eq(conversations.userId, ctx.userId),
      ),
    );
  if (!row) throw new NotFoundError("That conversation");
  return row;
}

export async function createConversation(
  db: Database,
  ctx: UserContext,
  agentId: string,
): Promise<Conversation> {
  const [row] = await db
    .insert(conversations)
    .values({ organizationId: ctx.orgId, userId: ctx.userId, agentId })
    .returning();
  if (!row) throw new Error("insert returned no row");
  return row;
}

export async function saveDiscovery(db: Database, id: string, discovery: ConversationDiscovery) {
  await db.update(conversations).set({ discovery }).where(eq(conversations.id, id));
}

/**
 * Records how a discovery that was late at conversation start ended, unless the user refreshed the
 * conversation's integrations since (a newer start owns the record then).
 */
export async function settleLateDiscovery(
  db: Database,
  id: string,
  discoveredAt: string,
  entry: ConversationDiscovery["integrations"][number],
) {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ discovery: conversations.discovery })
      .from(conversations)
      .where(eq(conversations.id, id))
      .for("update");
    const discovery = row?.discovery;
    if (!discovery || discovery.discoveredAt !== discoveredAt) return;
    const integrations = discovery.integrations.map((current) =>
      current.integrationId === entry.integrationId &&
      (current.status === "pending" || current.status === "stale")
        ? entry
        : current,
    );
    await tx
      .update(conversations)
      .set({ discovery: { ...discovery, integrations } })
      .where(eq(conversations.id, id));
  });
}

export async function loadBranches(db: Database, conversationId: string): Promise<ConversationBranches> {
  const [rows, [conversation]] = await Promise.all([
    db
      .select()
      .from(chatMessages)
      .where(eq(chatMessages.conversationId, conversationId))
      .orderBy(asc(chatMessages.createdAt), asc(chatMessages.id)),
    db
      .select({ shownMessageId: conversations.shownMessageId })
      .from(conversations)
      .where(eq(conversations.id, conversationId)),
  ]);
  const tree = messageTree(
    rows.map((row) => ({
      parentId: row.parentId,
      message: {
        id: row.id,
        role: row.role as UIMessage["role"],
        parts: row.parts as UIMessage["parts"],
        ...(row.metadata ? { metadata: row.metadata } : {}),
      },
    })),
  );
  const shown = shownPath(tree, conversation?.shownMessageId ?? null);
  return { tree, shown, versions: versionsOf(tree, shown) };
}

/** The branch of the conversation that is shown, first message first. */
export async function loadMessages(db: Database, conversationId: string): Promise<UIMessage[]> {
  return (await loadBranches(db, conversationId)).shown;
}

/**
 * Shows the branch through one of the conversation's messages (a version the user switched to), down to the
 * newest version below it; the choice is stored with the conversation. An id the conversation lacks is a 400.
 */
export async function showVersion(
  db: Database,
  ctx: UserContext,
  id: string,
  input: unknown,
): Promise<Pick<ConversationBranches, "shown" | "versions">> {
  const conversation = await getConversation(db, ctx, id);
  const { show } = parseInput(showVersionSchema, input);
  const { tree } = await loadBranches(db, conversation.id);
  if (!tree.byId.has(show)) throw new ValidationError("No message of this conversation has that id.");
  const end = branchEnd(tree, show);
  await db.update(conversations).set({ shownMessageId: end }).where(eq(conversations.id, conversation.id));
  const shown = pathTo(tree, end);
  return { shown, versions: versionsOf(tree, shown) };
}

const showVersionSchema = z
  .object({ show: z.string({ error: "show (the id of the version to show) is required." }).min(1).max(200) })
  .strict();

// PostgreSQL's jsonb takes neither a NUL character nor half a surrogate pair, and JSON.stringify escapes both
// (\u0000, \ud800). An escape starts after an odd number of backslashes; after an even number, the text only
// spells a backslash and "u0000".
const UNSTORABLE_ESCAPE = /(?<!\\)((?:\\\\)*)\\u(?:0000|d[89a-f][0-9a-f]{2})/g;

/** The messages with every NUL and lone surrogate (in texts, tool inputs and outputs, keys) replaced by U+FFFD. */
function storableMessages(messages: UIMessage[]): UIMessage[] {
  const json = JSON.stringify(messages);
  if (json.search(UNSTORABLE_ESCAPE) < 0) return messages;
  return JSON.parse(json.replace(UNSTORABLE_ESCAPE, "$1\\ufffd")) as UIMessage[];
}

async function writeMessages(db: Database, conversation: Conversation, all: UIMessage[]) {
  // Ids come from the client too; a repeated one keeps its latest version instead of failing the save.
  const messages = storableMessages([...new Map(all.map((message) => [message.id, message])).values()]);
  await db.transaction(async (tx) => {
    if (messages.length > 0) {
      const base = Date.now();
      // The branch as it now stands: new messages are added under the one before them; earlier ones keep their
      // place in the tree (and other branches stay stored), only their content is brought up to date.
      await tx
        .insert(chatMessages)
        .values(
          messages.map((message, index) => ({
            id: message.id,
            conversationId: conversation.id,
            parentId: messages[index - 1]?.id ?? null,
            role: message.role,
            parts: message.parts as unknown[],
            metadata: answerMetadata(message) ?? null,
            createdAt: new Date(base + index),
          })),
        )
        .onConflictDoUpdate({
          target: [chatMessages.conversationId, chatMessages.id],
          set: { parts: sql`excluded.parts`, metadata: sql`excluded.metadata` },
        });
    }
    const firstText = messages
      .find((message) => message.role === "user")
      ?.parts.find((part): part is { type: "text"; text: string } => part.type === "text")?.text;
    await tx
      .update(conversations)
      .set({
        updatedAt: sql`now()`,
        shownMessageId: messages.at(-1)?.id ?? null,
        ...(conversation.title === "New conversation" && firstText
          ? { title: firstText.trim().slice(0, 60) || conversation.title }
          : {}),
      })
      .where(eq(conversations.id, conversation.id));
  });
}

/**
 * Stores the branch of the conversation as it now stands (the history of a turn and its answer) and shows it,
 * keeping every other branch; titles the conversation from its first words.
 * This is the end of a chat turn, already streamed to the user: a failure is logged through the redacting logger,
 * with a short error and never the messages, and is not thrown (where it would be printed raw).
 */
export async function saveMessages(
  db: Database,
  conversation: Conversation,
  all: UIMessage[],
): Promise<boolean> {
  try {
    await writeMessages(db, conversation, all);
    return true;
  } catch (error) {
    logger.error("conversation not saved", {
      conversationId: conversation.id,
      messages: all.length,
      err: error,
    });
    return false;
  }
}

/** Adds messages the server made (a rendered prompt) to the end of the shown branch; a failure is thrown. */
export async function appendMessages(db: Database, conversation: Conversation, messages: UIMessage[]) {
  await writeMessages(db, conversation, [...(await loadMessages(db, conversation.id)), ...messages]);
}

export async function deleteConversation(db: Database, ctx: UserContext, id: string) {
  const conversation = await getConversation(db, ctx, id);
  await db.delete(conversations).where(eq(conversations.id, conversation.id));
  // Its files' rows went with it; their objects in an S3-compatible store go now (or, failing, on a later sweep).
  await deleteGoneChatFileObjects(db);
}

/** Renames one of the user's conversations. */
export async function renameConversation(db: Database, ctx: UserContext, id: string, title: unknown) {
  const conversation = await getConversation(db, ctx, id);
  const name = parseInput(
    z
      .string()
      .trim()
      .min(1, { error: "Enter a title." })
      .max(120, { error: "Use at most 120 characters for the title." }),
    title,
  );
  await db.update(conversations).set({ title: name }).where(eq(conversations.id, conversation.id));
}

/** Pins one of the user's conversations to the top of their list, or unpins it. */
export async function pinConversation(db: Database, ctx: UserContext, id: string, pinned: boolean) {
  const conversation = await getConversation(db, ctx, id);
  await db
    .update(conversations)
    .set({ pinnedAt: pinned ? sql`now()` : null })
    .where(eq(conversations.id, conversation.id));
}
