"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { requireApiContext } from "@/lib/auth/request-context";
import { ensureDefaultAgent, getAgent } from "@/lib/chat/agents";
import { createConversation, deleteConversation, renameConversation } from "@/lib/chat/conversations";
import { toActionError } from "@/lib/errors";

/** Starts a conversation with the chosen agent (one of the organization's), or the default agent. */
export async function newConversationAction(form?: FormData) {
  const ctx = await requireApiContext();
  const agentId = form?.get("agentId");
  const agent =
    typeof agentId === "string" && agentId
      ? await getAgent(getDb(), ctx, agentId)
      : await ensureDefaultAgent(getDb(), ctx.orgId);
  const conversation = await createConversation(getDb(), ctx, agent.id);
  redirect(`/chat/${conversation.id}`);
}

export async function deleteConversationAction(id: string) {
  await deleteConversation(getDb(), await requireApiContext(), id);
  revalidatePath("/chat");
  redirect("/chat");
}

export async function renameConversationAction(id: string, title: string): Promise<{ error?: string }> {
  try {
    await renameConversation(getDb(), await requireApiContext(), id, title);
  } catch (error) {
    return toActionError(error, { action: "renameConversation" });
  }
  revalidatePath(`/chat/${id}`);
  return {};
}
