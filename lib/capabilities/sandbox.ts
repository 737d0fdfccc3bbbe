import path from "node:path";
import { Worker } from "node:worker_threads";
import { logger } from "@/lib/logger";

export interface SandboxLimits {
  timeoutMs: number;
  memoryBytes: number;
  maxOutputBytes: number;
  stackBytes: number;
  maxToolCalls: number;
}

export type SandboxErrorKind = "timeout" | "memory" | "output_too_large" | "invalid_code" | "runtime";

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
  /** Calls another tool of the organization: how capability code composes integrations. */
  callTool: (name: string, args: Record<string, unknown>) => Promise<unknown>;
  limits: SandboxLimits;
}

type WorkerMessage =
  | { type: "tool"; callId: number; name: string; argsJson: string }
  | { type: "done"; result: SandboxResult; reusable: boolean };

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
 * Every failure is a result, never an exception.
 */
export function runCapability(run: SandboxRun): Promise<SandboxResult> {
  const started = performance.now();
  const worker = takeWorker();
  return new Promise<SandboxResult>((resolve) => {
    let finished = false;
    let toolCalls = 0;
    const end = (result: SandboxResult, reuse: boolean) => {
      if (finished) return;
      finished = true;
      clearTimeout(hardDeadline);
      worker.off("message", onMessage);
      worker.off("error", onError);
      if (reuse) releaseWorker(worker);
      else void worker.terminate();
      resolve(result);
    };
    const failure = (kind: SandboxErrorKind, message: string): SandboxResult => ({
      ok: false,
      error: { kind, message },
      logs: [],
      toolCalls,
      durationMs: Math.round(performance.now() - started),
    });
    const hardDeadline = setTimeout(
      () => end(failure("timeout", `The capability ran longer than ${run.limits.timeoutMs} ms.`), false),
      run.limits.timeoutMs + GRACE_MS,
    );
    const onError = (error: unknown) => {
      logger.warn("capability sandbox thread failed", { err: error });
      end(failure("runtime", "The capability failed in the sandbox."), false);
    };
    const onMessage = (message: WorkerMessage) => {
      if (message.type === "done") {
        end(message.result, message.reusable);
        return;
      }
      toolCalls++;
      run
        .callTool(message.name, JSON.parse(message.argsJson) as Record<string, unknown>)
        .then(
          (value) => ({ ok: true, json: JSON.stringify(value ?? null) }),
          (error: unknown) => ({
            ok: false,
            message: error instanceof Error ? error.message : "The tool call failed.",
          }),
        )
        .then((reply) => {
          if (!finished) worker.postMessage({ type: "tool-result", callId: message.callId, ...reply });
        });
    };
    worker.on("message", onMessage);
    worker.on("error", onError);
    worker.postMessage({
      type: "run",
      code: run.code,
      argsJson: JSON.stringify(run.args),
      limits: run.limits,
    });
  });
}
