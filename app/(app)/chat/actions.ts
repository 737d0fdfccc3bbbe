"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { getDb } from "@/db/client";
import { requireApiContext } from "@/lib/auth/request-context";
import { ensureDefaultAgent, getAgent } from "@/lib/chat/agents";
import { deleteConversation, renameConversation, startConversation } from "@/lib/chat/conversations";
import { toActionError, ValidationError } from "@/lib/errors";
import { formArg, idArg, invalidActionArgs, textArg } from "@/lib/http/action-args";

const newConversationInput = z.object({ form: formArg.optional() });
const idInput = z.object({ id: idArg });
const renameInput = z.object({ id: idArg, title: textArg });

/** For the actions that answer a refusal by throwing (they redirect when they succeed). */
function throwIfInvalid(invalid: ReturnType<typeof invalidActionArgs>) {
  if (invalid) throw new ValidationError(invalid.error, invalid.fields);
}

/** Starts a conversation with the chosen agent (one of the organization's), or the default agent; see startConversation. */
export async function newConversationAction(form?: FormData) {
  throwIfInvalid(invalidActionArgs(newConversationInput, { form }));
  const ctx = await requireApiContext();
  const agentId = form?.get("agentId");
  const agent =
    typeof agentId === "string" && agentId
      ? await getAgent(getDb(), ctx, agentId)
      : await ensureDefaultAgent(getDb(), ctx.orgId);
  const conversation = await startConversation(getDb(), ctx, agent.id);
  redirect(`/chat/${conversation.id}`);
}

export async function deleteConversationAction(id: string) {
  throwIfInvalid(invalidActionArgs(idInput, { id }));
  await deleteConversation(getDb(), await requireApiContext(), id);
  revalidatePath("/chat");
  redirect("/chat");
}

export async function renameConversationAction(id: string, title: string): Promise<{ error?: string }> {
  const invalid = invalidActionArgs(renameInput, { id, title });
  if (invalid) return invalid;
  try {
    await renameConversation(getDb(), await requireApiContext(), id, title);
  } catch (error) {
    return toActionError(error, { action: "renameConversation" });
  }
  revalidatePath(`/chat/${id}`);
  return {};
}
