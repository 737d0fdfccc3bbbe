"use server";

import type { UIMessage } from "ai";
import { revalidatePath } from "next/cache";
import { getDb } from "@/db/client";
import { requireApiContext } from "@/lib/auth/request-context";
import { renderConversationPrompt } from "@/lib/chat/conversation-prompts";
import { allowToolForConversation, setToolToggles } from "@/lib/chat/conversation-settings";
import { appendMessages, getConversation } from "@/lib/chat/conversations";
import { prepareConversation } from "@/lib/chat/prepare-conversation";
import { type ResourceAttachment, readResourceAttachment } from "@/lib/chat/resource-attachments";
import { toActionError } from "@/lib/errors";

async function conversationCapabilities(id: string) {
  const ctx = await requireApiContext();
  const conversation = await getConversation(getDb(), ctx, id);
  const { capabilities, active } = await prepareConversation(getDb(), ctx, conversation);
  return { ctx, conversation, capabilities, active };
}

export async function setToolTogglesAction(
  id: string,
  toggles: { disabledIntegrationIds: string[]; disabledTools: string[] },
): Promise<{ error?: string }> {
  try {
    await setToolToggles(getDb(), await requireApiContext(), id, toggles);
  } catch (error) {
    return toActionError(error, { action: "setToolToggles" });
  }
  revalidatePath(`/chat/${id}`);
  return {};
}

export async function allowToolAlwaysAction(id: string, toolName: string): Promise<{ error?: string }> {
  try {
    await allowToolForConversation(getDb(), await requireApiContext(), id, toolName);
  } catch (error) {
    return toActionError(error, { action: "allowToolAlways" });
  }
  return {};
}

export async function readResourceAction(
  id: string,
  request: { integrationId: string; uri: string },
): Promise<{ attachment?: ResourceAttachment; error?: string }> {
  try {
    const { ctx, active } = await conversationCapabilities(id);
    return { attachment: await readResourceAttachment(getDb(), ctx, active, request) };
  } catch (error) {
    return toActionError(error, { action: "readResource" });
  }
}

export async function renderPromptAction(
  id: string,
  request: { integrationId: string; name: string; arguments: Record<string, string> },
): Promise<{ messages?: UIMessage[]; error?: string; fields?: Record<string, string[]> }> {
  try {
    const { ctx, conversation, active } = await conversationCapabilities(id);
    const messages = await renderConversationPrompt(getDb(), ctx, active, request);
    // The server keeps the history: the prompt's messages join it here, and the turn answers them.
    await appendMessages(getDb(), conversation, messages);
    return { messages };
  } catch (error) {
    return toActionError(error, { action: "renderPrompt" });
  }
}
