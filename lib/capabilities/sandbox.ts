import path from "node:path";
import { Worker } from "node:worker_threads";
import { context as otelContext } from "@opentelemetry/api";
import { z } from "zod";
import { logger } from "@/lib/logger";
import { countSandboxRun } from "@/lib/metrics/record";
import { inSpan } from "@/lib/tracing/tracer";
import { SlotWaitAborted, sandboxSlots } from "./sandbox-slots";

export interface SandboxLimits {
  timeoutMs: number;
  memoryBytes: number;
  maxOutputBytes: number;
  stackBytes: number;
  maxToolCalls: number;
  /** The largest arguments of one `tools.call`, in bytes as JSON; 1 MiB unless set. */
  maxToolArgsBytes?: number;
}

/** How large one `tools.call`'s arguments may be unless the limits say otherwise: 1 MiB as JSON. */
export const MAX_TOOL_ARGS_BYTES = 1024 * 1024;

export type SandboxErrorKind =
  | "timeout"
  | "memory"
  | "output_too_large"
  | "invalid_code"
  | "runtime"
  | "cancelled";

export type SandboxResult =
  | { ok: true; value: unknown; logs: string[]; durationMs: number; toolCalls: number }
  | {
      ok: false;
      error: { kind: SandboxErrorKind; message: string };
      logs: string[];
      durationMs: number;
      toolCalls: number;
    };

export interface SandboxRun {
  /** The body of an async function that receives `args` and `tools`, and returns a JSON value. */
  code: string;
  args: Record<string, unknown>;
  /** Calls another tool of the organization: how capability code composes integrations. `ended` fires when this run ends. */
  callTool: (name: string, args: Record<string, unknown>, ended: AbortSignal) => Promise<unknown>;
  limits: SandboxLimits;
  /** Ends the run (or its wait for a sandbox thread) when it fires: the request was cancelled or ran out of time. */
  signal?: AbortSignal;
  /** Why `signal` fired, for the result. */
  cancelledMessage?: () => string;
  /** Rank in the queue for a sandbox thread: nested runs pass their depth so started trees finish first. */
  priority?: number;
}

// What the worker itself may report; "cancelled" is the host's alone.
const errorKinds = ["timeout", "memory", "output_too_large", "invalid_code", "runtime"] as const;
const runFacts = { logs: z.array(z.string()), durationMs: z.number(), toolCalls: z.number() };

// The worker is ours, but it runs tenants' code: the host believes none of its messages without checking them.
const workerMessageSchema = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("tool"),
    callId: z.number().int(),
    name: z.string(),
    argsJson: z.string(),
  }),
  z.object({
    type: z.literal("done"),
    result: z.discriminatedUnion("ok", [
      z.object({ ok: z.literal(true), value: z.unknown(), ...runFacts }),
      z.object({
        ok: z.literal(false),
        error: z.object({ kind: z.enum(errorKinds), message: z.string() }),
        ...runFacts,
      }),
    ]),
    reusable: z.boolean(),
  }),
]);

type WorkerMessage = z.infer<typeof workerMessageSchema>;

/** A tool call's arguments as the host accepts them: a JSON object within the size bound, or why not. */
function toolArgsOf(
  argsJson: string,
  maxBytes: number,
): { args: Record<string, unknown> } | { error: string } {
  // Measured before parsing, so oversized arguments cost the server's thread no parse and no validation.
  const bytes = Buffer.byteLength(argsJson);
  if (bytes > maxBytes) return { error: tooLarge(bytes, maxBytes) };
  let args: unknown;
  try {
    args = JSON.parse(argsJson);
  } catch {
    return { error: NOT_AN_OBJECT };
  }
  if (!args || typeof args !== "object" || Array.isArray(args)) return { error: NOT_AN_OBJECT };
  return { args: args as Record<string, unknown> };
}

const NOT_AN_OBJECT = "tools.call(name, args): args must be a JSON object.";
const tooLarge = (bytes: number, maxBytes: number) =>
  `tools.call's arguments are ${bytes.toLocaleString("en")} bytes as JSON; at most ${maxBytes.toLocaleString("en")} bytes are allowed.`;

// Plain JavaScript beside this file; the production build bundles it as a worker chunk of its own.
const WORKER_FILE = path.join(process.cwd(), "lib", "capabilities", "sandbox-worker.mjs");
// Past the deadline, QuickJS's own interrupt gets this long before the thread is terminated.
const GRACE_MS = 500;
const MAX_IDLE_WORKERS = 2;
const idle: Worker[] = [];

function takeWorker(): Worker {
  const worker = idle.pop() ?? new Worker(WORKER_FILE);
  worker.ref();
  return worker;
}

function releaseWorker(worker: Worker) {
  if (idle.length >= MAX_IDLE_WORKERS) {
    void worker.terminate();
    return;
  }
  // An idle worker keeps no process alive (tests, the CLI).
  worker.unref();
  idle.push(worker);
}

/**
 * Runs a capability's code in QuickJS (WebAssembly, its own heap: no process, require, fetch, file system or
 * host objects) on a worker thread, so the server's event loop never waits on it. QuickJS enforces the
 * deadline, memory, stack, output and tool-call limits; a thread still busy past the deadline is terminated.
 * At most CAPABILITY_MAX_CONCURRENT_RUNS run at once; the others wait, until their signal fires.
 * Every failure is a result, never an exception.
 */
export async function runCapability(run: SandboxRun): Promise<SandboxResult> {
  const started = performance.now();
  const slots = sandboxSlots();
  const failure = (kind: SandboxErrorKind, message: string, toolCalls = 0): SandboxResult => ({
    ok: false,
    error: { kind, message },
    logs: [],
    toolCalls,
    durationMs: Math.round(performance.now() - started),
  });
  let release: () => void;
  try {
    release = await slots.acquire(run.priority ?? 0, run.signal);
  } catch (error) {
    if (error instanceof SlotWaitAborted) return failure("cancelled", cancelledMessage(run));
    throw error;
  }
  try {
    return await inSpan("sandbox.run", {}, async (span) => {
      const result = await runOnWorker(run, failure);
      const outcome = result.ok ? "ok" : result.error.kind;
      countSandboxRun(outcome);
      span.setAttributes({
        "switchboard.outcome": outcome,
        "switchboard.sandbox.tool_calls": result.toolCalls,
      });
      return result;
    });
  } finally {
    release();
  }
}

const cancelledMessage = (run: SandboxRun) => run.cancelledMessage?.() ?? "The run was cancelled.";

/** One run on a sandbox thread, once the run holds a slot. */
function runOnWorker(
  run: SandboxRun,
  failureOf: (kind: SandboxErrorKind, message: string, toolCalls: number) => SandboxResult,
): Promise<SandboxResult> {
  const worker = takeWorker();
  const ended = new AbortController();
  // The thread's messages arrive outside this run's async context: its tool calls are put back into it.
  const runContext = otelContext.active();
  return new Promise<SandboxResult>((resolve) => {
    let finished = false;
    let toolCalls = 0;
    const end = (result: SandboxResult, reuse: boolean) => {
      if (finished) return;
      finished = true;
      clearTimeout(hardDeadline);
      worker.off("message", onMessage);
      worker.off("error", onError);
      run.signal?.removeEventListener("abort", onCancel);
      // Tool calls still in flight, and the capabilities they run, stop with this run.
      ended.abort();
      if (reuse) releaseWorker(worker);
      else void worker.terminate();
      resolve(result);
    };
    const failure = (kind: SandboxErrorKind, message: string) => failureOf(kind, message, toolCalls);
    const onCancel = () => end(failure("cancelled", cancelledMessage(run)), false);
    const hardDeadline = setTimeout(
      () => end(failure("timeout", `The capability ran longer than ${run.limits.timeoutMs} ms.`), false),
      run.limits.timeoutMs + GRACE_MS,
    );
    const onError = (error: unknown) => {
      logger.warn("capability sandbox thread failed", { err: error });
      end(failure("runtime", "The capability failed in the sandbox."), false);
    };
    const maxToolArgsBytes = run.limits.maxToolArgsBytes ?? MAX_TOOL_ARGS_BYTES;
    const reply = (callId: number, answer: { ok: true; json: string } | { ok: false; message: string }) => {
      if (!finished) worker.postMessage({ type: "tool-result", callId, ...answer });
    };
    const onToolCall = (message: Extract<WorkerMessage, { type: "tool" }>) => {
      toolCalls++;
      const parsed = toolArgsOf(message.argsJson, maxToolArgsBytes);
      if ("error" in parsed) {
        reply(message.callId, { ok: false, message: parsed.error });
        return;
      }
      // Whatever the tool does (throw at once, answer what JSON cannot hold), the code gets an answer.
      void Promise.resolve()
        .then(() => otelContext.with(runContext, () => run.callTool(message.name, parsed.args, ended.signal)))
        .then(
          (value) => ({ ok: true as const, json: JSON.stringify(value ?? null) ?? "null" }),
          (error: unknown) => ({
            ok: false as const,
            message: error instanceof Error ? error.message : "The tool call failed.",
          }),
        )
        .catch(() => ({ ok: false as const, message: "The tool's answer is not JSON." }))
        .then((answer) => reply(message.callId, answer));
    };
    const onMessage = (raw: unknown) => {
      const parsed = workerMessageSchema.safeParse(raw);
      if (!parsed.success) {
        // Never thrown: a listener's exception would be uncaught. The run ends by itself, at the latest at its deadline.
        logger.warn("capability sandbox sent a malformed message; ignored", {
          type:
            raw && typeof raw === "object" && "type" in raw && typeof raw.type === "string"
              ? raw.type.slice(0, 40)
              : typeof raw,
          problem: parsed.error.issues[0]?.message,
        });
        return;
      }
      const message = parsed.data;
      if (message.type === "done") end(message.result, message.reusable);
      else onToolCall(message);
    };
    worker.on("message", onMessage);
    worker.on("error", onError);
    if (run.signal?.aborted) return onCancel();
    run.signal?.addEventListener("abort", onCancel, { once: true });
    worker.postMessage({
      type: "run",
      code: run.code,
      argsJson: JSON.stringify(run.args),
      limits: { ...run.limits, maxToolArgsBytes },
    });
  });
}
