import {
  getQuickJS,
  type QuickJSContext,
  type QuickJSHandle,
  type QuickJSWASMModule,
  shouldInterruptAfterDeadline,
} from "quickjs-emscripten";

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

const MAX_LOG_LINES = 100;
const MAX_LOG_CHARS = 2000;

let quickjs: Promise<QuickJSWASMModule> | undefined;

// Runs inside the sandbox: wraps the capability's code, and keeps values crossing the boundary as JSON strings.
const PRELUDE = `
const __format = (values) => values.map((v) => typeof v === "string" ? v : (() => { try { return JSON.stringify(v); } catch { return String(v); } })()).join(" ");
globalThis.console = Object.freeze({
  log: (...v) => __log("log", __format(v)), info: (...v) => __log("info", __format(v)),
  warn: (...v) => __log("warn", __format(v)), error: (...v) => __log("error", __format(v)),
});
globalThis.tools = Object.freeze({
  call: async (name, args) => JSON.parse(await __callTool(String(name), JSON.stringify(args ?? {}))),
});
`;

function wrap(code: string): string {
  return `(async () => {
  const __fn = async (args, tools) => {
${code}
  };
  const __value = await __fn(JSON.parse(__args), tools);
  if (typeof __value === "function" || typeof __value === "symbol")
    throw new TypeError("The result must be JSON: return an object, array, string, number, boolean or null.");
  const __json = JSON.stringify(__value === undefined ? null : __value);
  if (__json === undefined) throw new TypeError("The result must be JSON.");
  return __json;
})()`;
}

class SandboxFailure extends Error {
  constructor(
    readonly kind: SandboxErrorKind,
    message: string,
  ) {
    super(message);
  }
}

function classify(message: string): SandboxErrorKind {
  if (/out of memory/i.test(message)) return "memory";
  if (/interrupted/i.test(message)) return "timeout";
  if (/SyntaxError/.test(message)) return "invalid_code";
  return "runtime";
}

/** The error a handle holds, as "Name: message" without internals of the host. */
function errorText(vm: QuickJSContext, handle: QuickJSHandle): string {
  const dumped = vm.dump(handle) as { name?: string; message?: string } | string;
  if (typeof dumped === "object" && dumped !== null) {
    return `${dumped.name ?? "Error"}: ${dumped.message ?? ""}`.trim();
  }
  return String(dumped);
}

/**
 * Runs a capability's code in a fresh QuickJS runtime (WebAssembly, its own heap: no process, require, fetch,
 * file system or host objects), with deadlines, a memory and stack limit, a cap on output and on tool calls.
 * Every failure is a result, never an exception, and the runtime is always disposed.
 */
export async function runCapability(run: SandboxRun): Promise<SandboxResult> {
  const started = performance.now();
  const { limits } = run;
  const logs: string[] = [];
  let toolCalls = 0;
  const finish = (
    outcome: { ok: true; value: unknown } | { ok: false; error: { kind: SandboxErrorKind; message: string } },
  ): SandboxResult => ({ ...outcome, logs, toolCalls, durationMs: Math.round(performance.now() - started) });

  // A module that failed to load is not kept, so the next run tries again.
  quickjs ??= getQuickJS().catch((error: unknown) => {
    quickjs = undefined;
    throw error;
  });
  const runtime = (await quickjs).newRuntime();
  const deadline = Date.now() + limits.timeoutMs;
  runtime.setMemoryLimit(limits.memoryBytes);
  runtime.setMaxStackSize(limits.stackBytes);
  runtime.setInterruptHandler(shouldInterruptAfterDeadline(deadline));
  const vm = runtime.newContext();
  let timer: NodeJS.Timeout | undefined;
  try {
    vm.newFunction("__log", (levelHandle, textHandle) => {
      if (logs.length >= MAX_LOG_LINES) return;
      const level = vm.getString(levelHandle);
      const text = vm.getString(textHandle).slice(0, MAX_LOG_CHARS);
      logs.push(level === "log" ? text : `[${level}] ${text}`);
      if (logs.length === MAX_LOG_LINES) logs.push(`[… more log lines were dropped]`);
    }).consume((fn) => vm.setProp(vm.global, "__log", fn));

    vm.newFunction("__callTool", (nameHandle, argsHandle) => {
      const name = vm.getString(nameHandle);
      const argsJson = vm.getString(argsHandle);
      const deferred = vm.newPromise();
      toolCalls++;
      const call =
        toolCalls > limits.maxToolCalls
          ? Promise.reject(new Error(`At most ${limits.maxToolCalls} tool calls per run.`))
          : Promise.resolve().then(() => run.callTool(name, JSON.parse(argsJson) as Record<string, unknown>));
      call.then(
        (value) => {
          if (!vm.alive) return;
          vm.newString(JSON.stringify(value ?? null)).consume((handle) => deferred.resolve(handle));
        },
        (error: unknown) => {
          if (!vm.alive) return;
          vm.newError(error instanceof Error ? error.message : "The tool call failed.").consume((handle) =>
            deferred.reject(handle),
          );
        },
      );
      deferred.settled.then(() => {
        if (runtime.alive) runtime.executePendingJobs();
      });
      return deferred.handle;
    }).consume((fn) => vm.setProp(vm.global, "__callTool", fn));

    vm.newString(JSON.stringify(run.args)).consume((handle) => vm.setProp(vm.global, "__args", handle));
    const prelude = vm.evalCode(PRELUDE, "prelude.js");
    if (prelude.error) {
      prelude.error.dispose();
      throw new SandboxFailure("runtime", "The sandbox could not start.");
    }
    prelude.value.dispose();

    const evaluated = vm.evalCode(wrap(run.code), "capability.js");
    if (evaluated.error) {
      const message = evaluated.error.consume((handle) => errorText(vm, handle));
      throw new SandboxFailure(classify(message), message);
    }
    const settled = evaluated.value.consume((promise) => vm.resolvePromise(promise));
    runtime.executePendingJobs();
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new SandboxFailure("timeout", `The capability ran longer than ${limits.timeoutMs} ms.`)),
        Math.max(0, deadline - Date.now()),
      );
    });
    const outcome = await Promise.race([settled, timeout]);
    if (outcome.error) {
      const message = outcome.error.consume((handle) => errorText(vm, handle));
      throw new SandboxFailure(classify(message), message);
    }
    const json = outcome.value.consume((handle) => vm.getString(handle));
    if (Buffer.byteLength(json) > limits.maxOutputBytes) {
      throw new SandboxFailure(
        "output_too_large",
        `The result is ${Buffer.byteLength(json).toLocaleString("en")} bytes; at most ${limits.maxOutputBytes.toLocaleString("en")} are allowed.`,
      );
    }
    return finish({ ok: true, value: JSON.parse(json) });
  } catch (error) {
    if (error instanceof SandboxFailure)
      return finish({ ok: false, error: { kind: error.kind, message: error.message } });
    const message = error instanceof Error ? error.message : String(error);
    return finish({
      ok: false,
      error: { kind: classify(message), message: "The capability failed in the sandbox." },
    });
  } finally {
    clearTimeout(timer);
    disposeQuietly(vm, runtime);
  }
}

// A run cut short can leave handles alive inside QuickJS; freeing the whole runtime reclaims them all.
function disposeQuietly(vm: QuickJSContext, runtime: { alive: boolean; dispose: () => void }) {
  try {
    if (vm.alive) vm.dispose();
  } catch {}
  try {
    if (runtime.alive) runtime.dispose();
  } catch {}
}
