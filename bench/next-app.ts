import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { closeSync, mkdtempSync, openSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { needsBuild } from "../scripts/build-state";

const root = path.resolve(import.meta.dirname, "..");
const STARTUP_TIMEOUT_MS = 90_000;
const STOP_GRACE_MS = 5_000;

/** Builds the app the way `npm start` does: only when there is no build or a source changed after it. */
export function buildIfNeeded(): void {
  if (!needsBuild(root)) return;
  console.log("Building the app (no build yet, or changed sources)…");
  const build = spawnSync("npx", ["next", "build"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

/**
 * One run's settings shared by the bench process and every app instance: the data folder (where a generated
 * encryption key would live), one AUTH_SECRET for all instances, and loopback upstreams allowed. Set on
 * process.env too, since the bench seeds through the app's own functions.
 */
export function benchEnvironment(): Record<string, string> {
  const shared = {
    DATA_DIR: mkdtempSync(path.join(tmpdir(), "switchboard-bench-")),
    AUTH_SECRET: randomBytes(32).toString("base64"),
    // The upstream MCP servers of the benchmarks listen on 127.0.0.1.
    MCP_ALLOW_PRIVATE_NETWORKS: "true",
  };
  Object.assign(process.env, shared);
  // The bench's own log lines (seeding) would drown its table; the apps' logging is not touched by this.
  process.env.LOG_LEVEL = "warn";
  return shared;
}

// Settings whose defaults the benchmarks measure: a value in the shell that runs the bench does not reach the app
// (a bench that needs another value passes it explicitly and says why).
const MEASURED_AT_DEFAULT = ["LOG_LEVEL", "API_RATE_LIMIT_PER_MINUTE"];

export interface RunningApp {
  port: number;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  pid: number;
  /** Resident memory of the app's process, in MB. */
  rssMb(): number;
  /** The last lines the app printed (its log goes to a file, as a deployment's would). */
  logTail(): string;
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();
function killAll() {
  for (const child of running) {
    try {
      if (child.pid) process.kill(-child.pid, "SIGKILL");
    } catch {}
  }
}
process.once("exit", killAll);
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.once(signal, () => {
    killAll();
    process.exit(130);
  });

async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
    await response.arrayBuffer();
    return response.ok;
  } catch {
    return false;
  }
}

/**
 * Serves the production build as `npm start` does (Node running scripts/serve.mjs, NODE_ENV=production), with
 * the given environment, and resolves once GET /api/health answers 200 (the database is reachable).
 */
export async function startApp(options: {
  port: number;
  databaseUrl: string;
  env?: Record<string, string>;
  /** Another checkout of the app, built, to serve instead of this one (a baseline to compare with). */
  root?: string;
}): Promise<RunningApp> {
  const { port } = options;
  const origin = `http://127.0.0.1:${port}`;
  if (await answers(`${origin}/api/ping`)) throw new Error(`Port ${port} is already in use.`);
  const inherited: NodeJS.ProcessEnv = { ...process.env };
  for (const name of MEASURED_AT_DEFAULT) delete inherited[name];
  const logFile = path.join(mkdtempSync(path.join(tmpdir(), "switchboard-bench-log-")), `app-${port}.log`);
  const log = openSync(logFile, "a");
  // BENCH_CPU_PROF=<folder>: the app writes a V8 CPU profile there when it stops, to see where its time goes.
  const profile = process.env.BENCH_CPU_PROF
    ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
    : [];
  const child = spawn(process.execPath, [...profile, "scripts/serve.mjs"], {
    cwd: options.root ?? root,
    env: {
      ...inherited,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      PORT: String(port),
      DATABASE_URL: options.databaseUrl,
      ...options.env,
    },
    stdio: ["ignore", log, log],
    // Its own process group, so stopping it reaches anything it started.
    detached: true,
  });
  closeSync(log);
  running.add(child);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.once("exit", () => running.delete(child));

  const logTail = () => {
    try {
      return readFileSync(logFile, "utf8").slice(-4_000);
    } catch {
      return "";
    }
  };
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null || !child.pid) return;
    process.kill(-child.pid, "SIGTERM");
    const timer = setTimeout(() => {
      try {
        if (child.pid) process.kill(-child.pid, "SIGKILL");
      } catch {}
    }, STOP_GRACE_MS);
    await exited;
    clearTimeout(timer);
  };

  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  while (!(await answers(`${origin}/api/health`))) {
    if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`The app on port ${port} did not start. Its log ends with:\n${logTail()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    port,
    origin,
    pid: child.pid ?? 0,
    rssMb: () => {
      const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
      return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN) / 1024;
    },
    logTail,
    stop,
  };
}
