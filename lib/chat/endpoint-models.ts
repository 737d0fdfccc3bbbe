import { z } from "zod";
import { getEnv } from "@/lib/env";
import { logger } from "@/lib/logger";

const OPENAI_BASE = "https://api.openai.com/v1";
const CACHE_MS = 60_000;
const TIMEOUT_MS = 5_000;

/** What the configured endpoint offers: its listed models, or why there is no list (the admin types names). */
export type EndpointModels =
  | { configured: false }
  | { configured: true; listed: string[] }
  | { configured: true; listed: null; reason: string };

const modelsAnswer = z.object({ data: z.array(z.object({ id: z.string().min(1).max(200) })).max(5_000) });

let cache: { key: string; at: number; value: EndpointModels } | undefined;

/** Asks an OpenAI-compatible endpoint for its models; an endpoint without the list says why instead. */
export async function readEndpointModels(base: string, apiKey: string | undefined): Promise<EndpointModels> {
  try {
    const response = await fetch(`${base.replace(/\/+$/, "")}/models`, {
      headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (!response.ok)
      return {
        configured: true,
        listed: null,
        reason: `The endpoint answered /models with HTTP ${response.status}.`,
      };
    const parsed = modelsAnswer.safeParse(await response.json());
    if (!parsed.success)
      return {
        configured: true,
        listed: null,
        reason: "The endpoint's /models answer is not a list of models.",
      };
    return { configured: true, listed: [...new Set(parsed.data.data.map((model) => model.id))].sort() };
  } catch (error) {
    logger.warn("model list not read", { err: error });
    return {
      configured: true,
      listed: null,
      reason: "The endpoint could not be reached for its /models list.",
    };
  }
}

/**
 * The models of the configured OpenAI-compatible endpoint (GET <base>/models), kept a minute so the settings
 * page and the chat do not ask on every view; nothing in offline mode, where no endpoint is set.
 */
export async function endpointModels(): Promise<EndpointModels> {
  const env = getEnv();
  if (!env.OPENAI_API_KEY && !env.OPENAI_BASE_URL) return { configured: false };
  const base = env.OPENAI_BASE_URL ?? OPENAI_BASE;
  if (cache && cache.key === base && Date.now() - cache.at < CACHE_MS) return cache.value;
  const value = await readEndpointModels(base, env.OPENAI_API_KEY);
  cache = { key: base, at: Date.now(), value };
  return value;
}
