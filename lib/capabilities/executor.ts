import type { Database } from "@/db/client";
import { getEnv } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { logger } from "@/lib/logger";
import { errorResult, type ToolResult } from "@/lib/tools/types";
import { RunBudget } from "./run-budget";
import { runCapability, type SandboxLimits, type SandboxResult } from "./sandbox";
import { recordCapabilityCall } from "./store";

/** How deep capabilities may call capabilities, so one calling itself ends instead of looping. */
export const MAX_CAPABILITY_DEPTH = 3;

const refusedRun = (message: string): SandboxResult => ({
  ok: false,
  error: { kind: "runtime", message },
  logs: [],
  durationMs: 0,
  toolCalls: 0,
});

export function capabilityLimits(): SandboxLimits {
  const env = getEnv();
  return {
    timeoutMs: env.CAPABILITY_TIMEOUT_MS,
    memoryBytes: env.CAPABILITY_MEMORY_MB * 1024 * 1024,
    maxOutputBytes: env.CAPABILITY_MAX_OUTPUT_BYTES,
    stackBytes: 512 * 1024,
    maxToolCalls: 50,
  };
}

/** What `tools.call` gives capability code: structured data when there is some, else the text. */
export function valueForCode(result: ToolResult): unknown {
  const texts = result.content.map((part) => (part.type === "text" ? part.text : ""));
  if (result.isError) throw new Error(result.errorMessage ?? (texts.join("\n") || "The tool failed."));
  if (result.structuredContent) return result.structuredContent;
  if (result.content.every((part) => part.type === "text")) return texts.join("\n");
  return result.content;
}

/** How capability code reaches another tool: one level deeper, on the same request budget. */
export type CallTool = (
  name: string,
  args: Record<string, unknown>,
  nested: { depth: number; budget: RunBudget },
) => Promise<ToolResult>;

export interface ExecuteOptions {
  depth: number;
  callTool: CallTool;
  limits?: SandboxLimits;
  record?: boolean;
  /** The request's budget when a capability called this one; a top-level run starts one. */
  budget?: RunBudget;
  /** The request's cancellation, for a top-level run. */
  signal?: AbortSignal;
}

/**
 * Runs a capability in the sandbox (its tool calls go through `callTool`, for its organization), counts the
 * call, and answers a tool result: the returned JSON as text (and as structured content when it is an object),
 * or the error as an error result. All runs one request reaches share one budget and stop with it.
 */
export async function executeCapability(
  db: Database,
  capability: { code: string; id?: string },
  args: Record<string, unknown>,
  options: ExecuteOptions,
): Promise<{ result: ToolResult; run: SandboxResult }> {
  const limits = options.limits ?? capabilityLimits();
  const budget = options.budget ?? RunBudget.start({ timeoutMs: limits.timeoutMs, signal: options.signal });
  const refused = budget.spendSandboxRun();
  if (refused) return { run: refusedRun(refused), result: errorResult(refused) };
  const run = await runCapability({
    code: capability.code,
    args,
    limits: { ...limits, timeoutMs: Math.min(limits.timeoutMs, budget.remainingMs()) },
    signal: budget.signal,
    cancelledMessage: () => budget.abortMessage(),
    priority: options.depth,
    callTool: async (name, toolArgs, runEnded) => {
      if (options.depth >= MAX_CAPABILITY_DEPTH)
        throw new Error(`Capabilities can call other tools at most ${MAX_CAPABILITY_DEPTH} levels deep.`);
      const overspent = budget.spendToolCall();
      if (overspent) throw new Error(overspent);
      const nested = { depth: options.depth + 1, budget: budget.within(runEnded) };
      const result = await options.callTool(name, toolArgs, nested).catch((error: unknown) => {
        // The catalog's refusal of a name says no more than "unknown tool": the code is told which one.
        if (error instanceof AppError && error.code === "bad_request:unknown_tool")
          throw new Error(`Unknown tool: ${name} (no tool of that name that this call may use).`);
        throw error;
      });
      return valueForCode(result);
    },
  });
  // An editor's test run of unsaved code is not a use of the stored capability.
  const { id } = capability;
  if (id && options.record !== false)
    await recordCapabilityCall(db, id, { ok: run.ok, latencyMs: run.durationMs }).catch((error: unknown) =>
      logger.warn("capability usage not recorded", { capabilityId: id, err: error }),
    );
  if (!run.ok) return { run, result: errorResult(run.error.message) };
  const structured =
    typeof run.value === "object" && run.value !== null && !Array.isArray(run.value)
      ? { structuredContent: run.value as Record<string, unknown> }
      : {};
  const text = typeof run.value === "string" ? run.value : JSON.stringify(run.value);
  return { run, result: { isError: false, content: [{ type: "text", text }], ...structured } };
}
