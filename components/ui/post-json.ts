import { z } from "zod";

const refusalSchema = z.object({
  error: z.string(),
  fields: z.record(z.string(), z.array(z.string())).optional(),
});

export type PostOutcome =
  | { ok: true; body: unknown }
  | { ok: false; error: string; fields?: Record<string, string[]> };

/** POSTs JSON to one of the app's routes: its answer, or its refusal (the message and the fields it names). */
export async function postJson(url: string, payload: unknown, signal: AbortSignal): Promise<PostOutcome> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(payload),
    signal,
  });
  const body: unknown = await response.json().catch(() => null);
  if (response.ok) return { ok: true, body };
  const refusal = refusalSchema.safeParse(body);
  return refusal.success
    ? { ok: false, ...refusal.data }
    : { ok: false, error: `The request failed (HTTP ${response.status}).` };
}
