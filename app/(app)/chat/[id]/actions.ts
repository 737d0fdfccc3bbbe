"use server";

import type { UIMessage } from "ai";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { requireSignedInUser } from "@/lib/auth/request-context";
import { chooseConversationModel } from "@/lib/chat/chat-models";
import { renderConversationPrompt } from "@/lib/chat/conversation-prompts";
import {
  allowToolForConversation,
  setToolToggles,
  toolTogglesSchema,
} from "@/lib/chat/conversation-settings";
import { appendMessages, getConversation } from "@/lib/chat/conversations";
import { conversationAgent, openConversation } from "@/lib/chat/prepare-conversation";
import { type ResourceAttachment, readResourceAttachment } from "@/lib/chat/resource-attachments";
import { idArg, textArg } from "@/lib/http/action-args";
import { serverAction } from "@/lib/http/server-action";

const chooseModelInput = z.object({ id: idArg, model: textArg });
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

export async function setToolTogglesAction(
  id: string,
  toggles: { disabledIntegrationIds: string[]; disabledTools: string[] },
): Promise<{ error?: string }> {
  return serverAction({
    name: "setToolToggles",
    args: togglesInput,
    input: { id, toggles },
    context: requireSignedInUser,
    run: ({ db, ctx }) => setToolToggles(db, ctx, id, toggles),
    onSuccess: () => {
      revalidatePath(`/chat/${id}`);
      return {};
    },
  });
}

export async function allowToolAlwaysAction(id: string, toolName: string): Promise<{ error?: string }> {
  return serverAction({
    name: "allowToolAlways",
    args: allowToolInput,
    input: { id, toolName },
    context: requireSignedInUser,
    run: ({ db, ctx }) => allowToolForConversation(db, ctx, id, toolName),
    onSuccess: () => ({}),
  });
}

export async function readResourceAction(
  id: string,
  request: { integrationId: string; uri: string },
): Promise<{ attachment?: ResourceAttachment; error?: string }> {
  return serverAction({
    name: "readResource",
    args: readResourceInput,
    input: { id, request },
    context: requireSignedInUser,
    run: async ({ db, ctx }) => {
      const { active } = await openConversation(db, ctx, id);
      return { attachment: await readResourceAttachment(db, ctx, active, request) };
    },
  });
}

export async function renderPromptAction(
  id: string,
  request: { integrationId: string; name: string; arguments: Record<string, string> },
): Promise<{ messages?: UIMessage[]; error?: string; fields?: Record<string, string[]> }> {
  return serverAction({
    name: "renderPrompt",
    args: renderPromptInput,
    input: { id, request },
    context: requireSignedInUser,
    run: async ({ db, ctx }) => {
      const { conversation, active } = await openConversation(db, ctx, id);
      const messages = await renderConversationPrompt(db, ctx, active, request);
      // The server keeps the history: the prompt's messages join it here, and the turn answers them.
      await appendMessages(db, conversation, messages);
      return { messages };
    },
  });
}

/** Stores the model the user chose in the header for one of their conversations; the server checks it. */
export async function chooseModelAction(id: string, model: string): Promise<{ error?: string }> {
  return serverAction({
    name: "chooseModel",
    args: chooseModelInput,
    input: { id, model },
    context: requireSignedInUser,
    run: async ({ db, ctx }) => {
      const conversation = await getConversation(db, ctx, id);
      const agent = await conversationAgent(db, ctx, conversation);
      await chooseConversationModel(db, ctx, conversation, agent.model, model);
    },
    onSuccess: () => ({}),
  });
}
