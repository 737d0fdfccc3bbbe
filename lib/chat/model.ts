import { createOpenAI } from "@ai-sdk/openai";
import type { LanguageModel } from "ai";
import { getEnv } from "@/lib/env";
import { offlineModel } from "./offline-model";

/** Whether the chat runs without a model endpoint: no key and no base URL. */
export const offline = () => {
  const env = getEnv();
  return !env.OPENAI_API_KEY && !env.OPENAI_BASE_URL;
};

/** OpenAI, or any OpenAI-compatible server through the Chat Completions API, or the offline model when none is set. */
export function chatModel(agentModel: string | null): {
  model: LanguageModel;
  offline: boolean;
  name: string;
  baseURL?: string;
} {
  const env = getEnv();
  if (offline()) return { model: offlineModel(), offline: true, name: "offline" };
  const provider = createOpenAI({ apiKey: env.OPENAI_API_KEY ?? "not-needed", baseURL: env.OPENAI_BASE_URL });
  const name = agentModel ?? env.CHAT_MODEL;
  return { model: provider.chat(name), offline: false, name, baseURL: env.OPENAI_BASE_URL };
}
