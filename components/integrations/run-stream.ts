import { z } from "zod";
import type { ToolRunResult } from "@/lib/tools/integration-tool-run";

const question = z.object({
  type: z.literal("question"),
  id: z.string(),
  message: z.string(),
  requestedSchema: z.record(z.string(), z.unknown()),
});
const sampling = z.object({
  type: z.literal("sampling"),
  id: z.string(),
  request: z.object({
    messages: z.array(z.object({ role: z.string(), content: z.unknown() })).default([]),
    systemPrompt: z.string().optional(),
    maxTokens: z.number().optional(),
  }),
});

const runLine = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("progress"),
    progress: z.number(),
    total: z.number().optional(),
    message: z.string().optional(),
  }),
  z.object({ type: z.literal("log"), level: z.string(), logger: z.string().optional(), data: z.unknown() }),
  question,
  sampling,
  z.object({ type: z.literal("result"), result: z.unknown() }),
  z.object({
    type: z.literal("refusal"),
    body: z.object({
      error: z.string(),
      fields: z.record(z.string(), z.array(z.string())).optional(),
    }),
  }),
]);

export type RunProgress = Extract<z.infer<typeof runLine>, { type: "progress" }>;
export type RunLog = Extract<z.infer<typeof runLine>, { type: "log" }>;
export type RunQuestion = z.infer<typeof question>;
export type RunSampling = z.infer<typeof sampling>;

/** What the page hears during a run, before the result. */
export interface RunListeners {
  progress(progress: RunProgress): void;
  log(log: RunLog): void;
  question(question: RunQuestion): void;
  sampling(request: RunSampling): void;
}

/** A run's result with how it went: refused before the server (bad arguments, disabled) or answered. */
export interface RunOutcome {
  result: ToolRunResult;
  refused: boolean;
  latencyMs: number;
  /** The result's size as JSON, in bytes. */
  bytes: number;
}

const refusal = (error: string, fields?: Record<string, string[]>): ToolRunResult => ({
  isError: true,
  content: [],
  errorMessage: error,
  ...(fields ? { fields } : {}),
});

/**
 * One run through the runner's route, following what the server says as it comes (progress, log messages, its
 * questions and sampling requests); a refusal (bad arguments, a disabled integration) is an error result.
 */
export async function runTool(
  integrationId: string,
  toolName: string,
  args: Record<string, unknown>,
  signal: AbortSignal,
  on: RunListeners,
): Promise<RunOutcome> {
  const started = performance.now();
  const done = (result: ToolRunResult, refused: boolean): RunOutcome => ({
    result,
    refused,
    latencyMs: Math.round(performance.now() - started),
    bytes: new TextEncoder().encode(JSON.stringify(result)).length,
  });
  const response = await fetch(`/api/integrations/${integrationId}/run`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/x-ndjson" },
    body: JSON.stringify({ toolName, args }),
    signal,
  });
  if (!response.ok || !response.body) {
    const body: unknown = await response.json().catch(() => null);
    const refused = runLine.safeParse({ type: "refusal", body });
    return done(
      refused.success && refused.data.type === "refusal"
        ? refusal(refused.data.body.error, refused.data.body.fields)
        : refusal(`The request failed (HTTP ${response.status}).`),
      true,
    );
  }
  const lines = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let pending = "";
  for (;;) {
    const { value, done: ended } = await lines.read();
    if (ended) break;
    pending += value;
    const complete = pending.split("\n");
    pending = complete.pop() ?? "";
    for (const text of complete) {
      const line = runLine.safeParse(JSON.parse(text));
      if (!line.success) continue;
      const data = line.data;
      if (data.type === "progress") on.progress(data);
      else if (data.type === "log") on.log(data);
      else if (data.type === "question") on.question(data);
      else if (data.type === "sampling") on.sampling(data);
      else if (data.type === "result") return done(data.result as ToolRunResult, false);
      else return done(refusal(data.body.error, data.body.fields), true);
    }
  }
  return done(refusal("The server stopped answering before the result. Try again."), true);
}

/** Sends the person's answer to a question or sampling request; resolves with why it failed, if it did. */
export async function answerRun(
  integrationId: string,
  id: string,
  answer: unknown,
): Promise<string | undefined> {
  try {
    const response = await fetch(`/api/integrations/${integrationId}/run/answers/${encodeURIComponent(id)}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(answer),
    });
    if (response.ok) return undefined;
    const body = (await response.json().catch(() => null)) as { error?: string } | null;
    return body?.error ?? `The answer was not taken (HTTP ${response.status}).`;
  } catch {
    return "Could not reach the app to send the answer. Try again.";
  }
}
