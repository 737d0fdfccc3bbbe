import { z } from "zod";

const lineSchema = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("started"),
    integrations: z.array(z.object({ integrationId: z.string(), name: z.string() })),
  }),
  z.object({
    type: z.literal("settled"),
    integrationId: z.string(),
    status: z.enum(["connected", "failed"]),
    toolCount: z.number().optional(),
    message: z.string().optional(),
    ms: z.number(),
  }),
  z.object({ type: z.literal("done") }),
  z.object({ type: z.literal("failed"), message: z.string() }),
]);

/** What conversation start reports as it goes: the integrations it asks, then each one's outcome. */
export type StartEvent = z.infer<typeof lineSchema>;

const UNREACHABLE = "Could not reach the server. Check your connection and try again.";

/**
 * Runs conversation start (or a refresh) through its route, not a server action, so a slow server never holds
 * up the page's other actions; `onEvent` hears each integration as it answers. Resolves to an error message,
 * or undefined when it went through; rejects when `signal` cancels it (the server then keeps what it had).
 */
export async function startDiscovery(
  conversationId: string,
  refresh = false,
  onEvent?: (event: StartEvent) => void,
  signal?: AbortSignal,
): Promise<string | undefined> {
  try {
    const response = await fetch(`/api/chat/${encodeURIComponent(conversationId)}/discovery`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/x-ndjson, application/json" },
      body: JSON.stringify({ refresh }),
      signal,
    });
    if (!response.ok) {
      const body = (await response.json().catch(() => null)) as { error?: unknown } | null;
      return typeof body?.error === "string" ? body.error : "Could not connect to the agent's integrations.";
    }
    if (!response.headers.get("content-type")?.includes("ndjson") || !response.body) return undefined;
    let failure: string | undefined;
    let buffered = "";
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { value, done } = await reader.read();
      buffered += value ?? "";
      const lines = buffered.split("\n");
      buffered = done ? "" : (lines.pop() ?? "");
      for (const line of lines) {
        if (!line.trim()) continue;
        const parsed = lineSchema.safeParse(JSON.parse(line));
        if (!parsed.success) continue;
        if (parsed.data.type === "failed") failure = parsed.data.message;
        onEvent?.(parsed.data);
      }
      if (done) return failure;
    }
  } catch (error) {
    if (signal?.aborted) throw error;
    return UNREACHABLE;
  }
}
