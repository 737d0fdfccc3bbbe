import { spawn } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const hubBin = path.resolve(import.meta.dirname, "../../node_modules/mcp-hub/dist/cli.js");
const STARTUP_TIMEOUT_MS = 30_000;

export interface RunningHub {
  pid: number;
  /**
   * mcp-hub's unified MCP endpoint, `/mcp`: the legacy HTTP+SSE transport (GET opens the stream, POST
   * `/messages` carries the requests); 4.2 serves no Streamable HTTP there.
   */
  url: string;
  /** The upstream's tools are prefixed with the server's name and `__`. */
  toolName(tool: string): string;
  stop(): Promise<void>;
}

interface HubHealth {
  servers?: { name: string; status: string; capabilities?: { tools?: unknown[] } }[];
}

/**
 * mcp-hub 4.2 (npm `mcp-hub`) in front of one Streamable HTTP server, as its README configures it: a config file
 * naming the server by URL, `mcp-hub --port <port> --config <file>`. Its state and logs go to a temporary folder
 * instead of the home directory. Resolves once the hub has connected the server and listed its tools.
 */
export async function startMcpHub(options: { port: number; upstreamUrl: string }): Promise<RunningHub> {
  const dir = mkdtempSync(path.join(tmpdir(), "switchboard-bench-mcp-hub-"));
  const config = path.join(dir, "mcp-servers.json");
  writeFileSync(config, JSON.stringify({ mcpServers: { everything: { url: options.upstreamUrl } } }));
  const logFile = path.join(dir, "hub.log");
  const log = openSync(logFile, "a");
  const child = spawn(process.execPath, [hubBin, "--port", String(options.port), "--config", config], {
    env: {
      ...process.env,
      XDG_STATE_HOME: path.join(dir, "state"),
      XDG_CONFIG_HOME: path.join(dir, "config"),
      XDG_DATA_HOME: path.join(dir, "data"),
    },
    stdio: ["ignore", log, log],
  });
  closeSync(log);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  process.once("exit", () => child.kill("SIGKILL"));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
    await exited;
    clearTimeout(timer);
  };

  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  for (;;) {
    try {
      const response = await fetch(`http://127.0.0.1:${options.port}/api/health`);
      const health = (await response.json()) as HubHealth;
      const server = health.servers?.find((s) => s.name === "everything");
      if (server?.status === "connected" && (server.capabilities?.tools?.length ?? 0) > 0) break;
    } catch {}
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      const tail = readFileSync(logFile, "utf8").slice(-4_000);
      throw new Error(`mcp-hub did not connect its server. Its log ends with:\n${tail}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    pid: child.pid ?? 0,
    url: `http://127.0.0.1:${options.port}/mcp`,
    toolName: (tool) => `everything__${tool}`,
    stop,
  };
}
