"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { requireSignedInUser } from "@/lib/auth/request-context";
import { ensureDefaultAgent, getAgent } from "@/lib/chat/agents";
import { deleteConversation, renameConversation, startConversation } from "@/lib/chat/conversations";
import { formArg, idArg, textArg } from "@/lib/http/action-args";
import { serverAction, throwingServerAction } from "@/lib/http/server-action";

const newConversationInput = z.object({ form: formArg.optional() });
const idInput = z.object({ id: idArg });
const renameInput = z.object({ id: idArg, title: textArg });

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

export async function deleteConversationAction(id: string) {
  return throwingServerAction({
    name: "deleteConversation",
    args: idInput,
    input: { id },
    context: requireSignedInUser,
    run: ({ db, ctx }) => deleteConversation(db, ctx, id),
    onSuccess: () => {
      revalidatePath("/chat");
      redirect("/chat");
    },
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
      revalidatePath(`/chat/${id}`);
      return {};
    },
  });
}
