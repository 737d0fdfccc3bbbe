"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { requireSignedInUser } from "@/lib/auth/request-context";
import { ensureDefaultAgent, getAgent } from "@/lib/chat/agents";
import { type ConversationRow, conversationRow } from "@/lib/chat/conversation-row";
import {
  deleteConversation,
  listConversations,
  pinConversation,
  renameConversation,
  startConversation,
} from "@/lib/chat/conversations";
import { booleanArg, formArg, idArg, textArg } from "@/lib/http/action-args";
import { serverAction, throwingServerAction } from "@/lib/http/server-action";

const newConversationInput = z.object({ form: formArg.optional() });
const idInput = z.object({ id: idArg });
const renameInput = z.object({ id: idArg, title: textArg });
const pinInput = z.object({ id: idArg, pinned: booleanArg });
const searchInput = z.object({ query: textArg.max(200, { error: "must be at most 200 characters" }) });

/** Starts a conversation with the chosen agent (one of the organization's), or the default agent; see startConversation. */
export async function newConversationAction(form?: FormData) {
  return throwingServerAction({
    name: "newConversation",
    args: newConversationInput,
    input: { form },
    context: requireSignedInUser,
    run: async ({ db, ctx }) => {
      const agentId = form?.get("agentId");
      const agent =
        typeof agentId === "string" && agentId
          ? await getAgent(db, ctx, agentId)
          : await ensureDefaultAgent(db, ctx.orgId);
      return startConversation(db, ctx, agent.id);
    },
    onSuccess: (conversation) => redirect(`/chat/${conversation.id}`),
  });
}

/** Deletes one of the user's conversations; the page decides where to go next (the list, or where it was). */
export async function deleteConversationAction(id: string): Promise<{ error?: string }> {
  return serverAction({
    name: "deleteConversation",
    args: idInput,
    input: { id },
    context: requireSignedInUser,
    run: ({ db, ctx }) => deleteConversation(db, ctx, id),
    onSuccess: () => {
      revalidatePath("/chat", "layout");
      return {};
    },
  });
}

/** Pins one of the user's conversations to the top of their list, or unpins it. */
export async function pinConversationAction(id: string, pinned: boolean): Promise<{ error?: string }> {
  return serverAction({
    name: "pinConversation",
    args: pinInput,
    input: { id, pinned },
    context: requireSignedInUser,
    run: ({ db, ctx }) => pinConversation(db, ctx, id, pinned),
    onSuccess: () => {
      revalidatePath("/chat", "layout");
      return {};
    },
  });
}

/** The user's conversations whose title or message text contains `query`, for the sidebar's search. */
export async function searchConversationsAction(
  query: string,
): Promise<{ conversations?: ConversationRow[]; error?: string }> {
  return serverAction({
    name: "searchConversations",
    args: searchInput,
    input: { query },
    context: requireSignedInUser,
    run: async ({ db, ctx }) => ({
      conversations: (await listConversations(db, ctx, { search: query })).map(conversationRow),
    }),
  });
}

export async function renameConversationAction(id: string, title: string): Promise<{ error?: string }> {
  return serverAction({
    name: "renameConversation",
    args: renameInput,
    input: { id, title },
    context: requireSignedInUser,
    run: ({ db, ctx }) => renameConversation(db, ctx, id, title),
    onSuccess: () => {
      revalidatePath("/chat", "layout");
      return {};
    },
  });
}
