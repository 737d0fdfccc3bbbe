"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { requireApiContext } from "@/lib/auth/request-context";
import { ensureDefaultAgent } from "@/lib/chat/agents";
import { createConversation, deleteConversation } from "@/lib/chat/conversations";

export async function newConversationAction() {
  const ctx = await requireApiContext();
  const agent = await ensureDefaultAgent(getDb(), ctx.orgId);
  const conversation = await createConversation(getDb(), ctx, agent.id);
  redirect(`/chat/${conversation.id}`);
}

export async function deleteConversationAction(id: string) {
  await deleteConversation(getDb(), await requireApiContext(), id);
  revalidatePath("/chat");
  redirect("/chat");
}
