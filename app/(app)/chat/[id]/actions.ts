"use server";

import type { UIMessage } from "ai";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { getDb } from "@/db/client";
import { requireApiContext } from "@/lib/auth/request-context";
import { renderConversationPrompt } from "@/lib/chat/conversation-prompts";
import {
  allowToolForConversation,
  setToolToggles,
  toolTogglesSchema,
} from "@/lib/chat/conversation-settings";
import { appendMessages, getConversation } from "@/lib/chat/conversations";
import { prepareConversation } from "@/lib/chat/prepare-conversation";
import { type ResourceAttachment, readResourceAttachment } from "@/lib/chat/resource-attachments";
import { toActionError } from "@/lib/errors";
import { idArg, invalidActionArgs, textArg } from "@/lib/http/action-args";

const togglesInput = z.object({ id: idArg, toggles: toolTogglesSchema.strict() });
const allowToolInput = z.object({ id: idArg, toolName: textArg });
const readResourceInput = z.object({
  id: idArg,
  request: z.strictObject({ integrationId: idArg, uri: textArg }, { error: "must name a resource" }),
});
const renderPromptInput = z.object({
  id: idArg,
  request: z.strictObject(
    { integrationId: idArg, name: textArg, arguments: z.record(z.string(), textArg) },
    { error: "must name a prompt and its arguments" },
  ),
});

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
  const invalid = invalidActionArgs(togglesInput, { id, toggles });
  if (invalid) return invalid;
  try {
    await setToolToggles(getDb(), await requireApiContext(), id, toggles);
  } catch (error) {
    return toActionError(error, { action: "setToolToggles" });
  }
  revalidatePath(`/chat/${id}`);
  return {};
}

export async function allowToolAlwaysAction(id: string, toolName: string): Promise<{ error?: string }> {
  const invalid = invalidActionArgs(allowToolInput, { id, toolName });
  if (invalid) return invalid;
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
  const invalid = invalidActionArgs(readResourceInput, { id, request });
  if (invalid) return invalid;
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
  const invalid = invalidActionArgs(renderPromptInput, { id, request });
  if (invalid) return invalid;
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
