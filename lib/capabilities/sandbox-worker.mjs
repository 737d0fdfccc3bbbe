// The capability sandbox's worker thread: runs code in QuickJS (WebAssembly) so that even a native operation
// that ignores QuickJS's interrupt cannot block the server; the host terminates this thread at the deadline.
import { parentPort } from "node:worker_threads";
import { getQuickJS, shouldInterruptAfterDeadline } from "quickjs-emscripten";

const MAX_LOG_LINES = 100;
const MAX_LOG_CHARS = 2000;
const quickjs = await getQuickJS();
const pendingCalls = new Map();
let nextCallId = 0;
let broken = false;

// Runs inside QuickJS: console and tools for the capability; values cross the boundary as JSON strings.
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

const wrap = (code) => `(async () => {
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

class SandboxFailure extends Error {
  constructor(kind, message) {
    super(message);
    this.kind = kind;
  }
}

function classify(message) {
  if (/out of memory/i.test(message)) return "memory";
  if (/interrupted/i.test(message)) return "timeout";
  if (/SyntaxError/.test(message)) return "invalid_code";
  return "runtime";
}

// The capability's first line is this line of the wrapped source (see wrap).
const CODE_FIRST_LINE = 3;

/** The line of the capability's own code an error names first, if it names one. */
function codeLine(stack) {
  const match = typeof stack === "string" ? stack.match(/capability\.js:(\d+)/) : null;
  const line = match ? Number(match[1]) - CODE_FIRST_LINE + 1 : 0;
  return line >= 1 ? line : undefined;
}

function errorText(vm, handle) {
  const dumped = vm.dump(handle);
  if (typeof dumped === "object" && dumped !== null) {
    // A syntax error says where it is: its message alone rarely does.
    const line = dumped.name === "SyntaxError" ? codeLine(dumped.stack) : undefined;
    return `${dumped.name ?? "Error"}: ${dumped.message ?? ""}${line ? ` (line ${line})` : ""}`.trim();
  }
  return String(dumped);
}

function callHost(name, argsJson) {
  return new Promise((resolve, reject) => {
    const callId = ++nextCallId;
    pendingCalls.set(callId, (reply) => (reply.ok ? resolve(reply.json) : reject(new Error(reply.message))));
    parentPort.postMessage({ type: "tool", callId, name, argsJson });
  });
}

// Arguments past this size never leave the worker: the server's thread would have to copy and parse them.
const tooLarge = (bytes, maxBytes) =>
  `tools.call's arguments are ${bytes.toLocaleString("en")} bytes as JSON; at most ${maxBytes.toLocaleString("en")} bytes are allowed.`;

async function run({ code, argsJson, limits }) {
  const started = performance.now();
  const maxToolArgsBytes = limits.maxToolArgsBytes ?? 1024 * 1024;
  const logs = [];
  let toolCalls = 0;
  const finish = (outcome) => ({
    ...outcome,
    logs,
    toolCalls,
    durationMs: Math.round(performance.now() - started),
  });
  const runtime = quickjs.newRuntime();
  const deadline = Date.now() + limits.timeoutMs;
  runtime.setMemoryLimit(limits.memoryBytes);
  runtime.setMaxStackSize(limits.stackBytes);
  runtime.setInterruptHandler(shouldInterruptAfterDeadline(deadline));
  const vm = runtime.newContext();
  // The engine says "InternalError: interrupted" when the deadline stops the code; people read the limit instead.
  const failureOf = (message) => {
    const kind = classify(message);
    return new SandboxFailure(
      kind,
      kind === "timeout" ? `The capability ran longer than ${limits.timeoutMs} ms.` : message,
    );
  };
  // Promises of tool calls still unanswered when the run ends: freed before the runtime, which cannot free them.
  const unanswered = new Set();
  let timer;
  try {
    vm.newFunction("__log", (levelHandle, textHandle) => {
      if (logs.length >= MAX_LOG_LINES) return;
      const level = vm.getString(levelHandle);
      const text = vm.getString(textHandle).slice(0, MAX_LOG_CHARS);
      logs.push(level === "log" ? text : `[${level}] ${text}`);
      if (logs.length === MAX_LOG_LINES) logs.push("[… more log lines were dropped]");
    }).consume((fn) => vm.setProp(vm.global, "__log", fn));

    vm.newFunction("__callTool", (nameHandle, argsHandle) => {
      const name = vm.getString(nameHandle);
      const toolArgs = vm.getString(argsHandle);
      const deferred = vm.newPromise();
      unanswered.add(deferred);
      toolCalls++;
      const argsBytes = Buffer.byteLength(toolArgs);
      const call =
        toolCalls > limits.maxToolCalls
          ? Promise.reject(new Error(`At most ${limits.maxToolCalls} tool calls per run.`))
          : argsBytes > maxToolArgsBytes
            ? Promise.reject(new Error(tooLarge(argsBytes, maxToolArgsBytes)))
            : callHost(name, toolArgs);
      call.then(
        (json) => {
          if (vm.alive) vm.newString(json).consume((handle) => deferred.resolve(handle));
        },
        (error) => {
          if (vm.alive) vm.newError(error.message).consume((handle) => deferred.reject(handle));
        },
      );
      deferred.settled.then(() => {
        unanswered.delete(deferred);
        if (runtime.alive) runtime.executePendingJobs();
      });
      return deferred.handle;
    }).consume((fn) => vm.setProp(vm.global, "__callTool", fn));

    vm.newString(argsJson).consume((handle) => vm.setProp(vm.global, "__args", handle));
    const prelude = vm.evalCode(PRELUDE, "prelude.js", { type: "global" });
    if (prelude.error) {
      prelude.error.dispose();
      throw new SandboxFailure("runtime", "The sandbox could not start.");
    }
    prelude.value.dispose();

    const evaluated = vm.evalCode(wrap(code), "capability.js", { type: "global" });
    if (evaluated.error) throw failureOf(evaluated.error.consume((handle) => errorText(vm, handle)));
    const settled = evaluated.value.consume((promise) => vm.resolvePromise(promise));
    runtime.executePendingJobs();
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(
        () => reject(new SandboxFailure("timeout", `The capability ran longer than ${limits.timeoutMs} ms.`)),
        Math.max(0, deadline - Date.now()),
      );
    });
    const outcome = await Promise.race([settled, timeout]);
    if (outcome.error) throw failureOf(outcome.error.consume((handle) => errorText(vm, handle)));
    const json = outcome.value.consume((handle) => vm.getString(handle));
    const bytes = Buffer.byteLength(json);
    if (bytes > limits.maxOutputBytes) {
      throw new SandboxFailure(
        "output_too_large",
        `The result is ${bytes.toLocaleString("en")} bytes; at most ${limits.maxOutputBytes.toLocaleString("en")} are allowed.`,
      );
    }
    return finish({ ok: true, value: JSON.parse(json) });
  } catch (error) {
    if (error instanceof SandboxFailure)
      return finish({ ok: false, error: { kind: error.kind, message: error.message } });
    // Anything else came out of the engine itself (a host stack overflow, say): this thread is not reused.
    broken = true;
    const message = error instanceof Error ? error.message : String(error);
    return finish({
      ok: false,
      error: { kind: classify(message), message: "The capability failed in the sandbox." },
    });
  } finally {
    clearTimeout(timer);
    pendingCalls.clear();
    for (const deferred of unanswered) if (deferred.alive) deferred.dispose();
    unanswered.clear();
    // A run cut short can leave handles alive inside QuickJS; freeing the whole runtime reclaims them all.
    // If freeing fails, the engine is in no state to run anything more: this thread is not reused.
    try {
      if (vm.alive) vm.dispose();
    } catch {
      broken = true;
    }
    try {
      if (runtime.alive) runtime.dispose();
    } catch {
      broken = true;
    }
  }
}

parentPort.on("message", async (message) => {
  if (message.type === "tool-result") {
    const settle = pendingCalls.get(message.callId);
    pendingCalls.delete(message.callId);
    settle?.(message);
    return;
  }
  if (message.type === "run") {
    const result = await run(message);
    parentPort.postMessage({ type: "done", result, reusable: !broken });
  }
});
