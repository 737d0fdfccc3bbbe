import type { Database } from "@/db/client";
import { getEnv } from "@/lib/env";
import { logger } from "@/lib/logger";
import { errorResult, type ToolResult } from "@/lib/tools/types";
import { runCapability, type SandboxLimits, type SandboxResult } from "./sandbox";
import { recordCapabilityCall } from "./store";

/** How deep capabilities may call capabilities, so one calling itself ends instead of looping. */
export const MAX_CAPABILITY_DEPTH = 3;

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

export type CallTool = (name: string, args: Record<string, unknown>, depth: number) => Promise<ToolResult>;

/**
 * Runs a capability in the sandbox (its tool calls go through `callTool`, for its organization), counts the
 * call, and answers a tool result: the returned JSON as text (and as structured content when it is an object),
 * or the error as an error result.
 */
export async function executeCapability(
  db: Database,
  capability: { code: string; id?: string },
  args: Record<string, unknown>,
  options: { depth: number; callTool: CallTool; limits?: SandboxLimits; record?: boolean },
): Promise<{ result: ToolResult; run: SandboxResult }> {
  const run = await runCapability({
    code: capability.code,
    args,
    limits: options.limits ?? capabilityLimits(),
    callTool: async (name, toolArgs) => {
      if (options.depth >= MAX_CAPABILITY_DEPTH)
        throw new Error(`Capabilities can call other tools at most ${MAX_CAPABILITY_DEPTH} levels deep.`);
      return valueForCode(await options.callTool(name, toolArgs, options.depth + 1));
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
