import { createHash } from "node:crypto";
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { logger } from "@/lib/logger";
import type { McpConnectionConfig } from "../types";
import { type McpSession, openMcpSession } from "./connect";

interface Entry {
  key: string;
  integrationId: string;
  /** The integration and whose credentials: an edit replaces that owner's session, not other users'. */
  group: string;
  session: Promise<McpSession>;
  lastUsed: number;
  inFlight: number;
}

export interface SessionPoolOptions {
  idleMs: number;
  open?: (config: McpConnectionConfig) => Promise<McpSession>;
}

/** The session expired on the server (HTTP 404): the request was not processed, so it is safe to retry. */
function isExpiredSession(error: unknown): boolean {
  return error instanceof StreamableHTTPError && error.code === 404;
}

function isClosed(error: unknown): boolean {
  if (error instanceof McpError) return error.code === ErrorCode.ConnectionClosed;
  return error instanceof Error && error.message === "Not connected";
}

function sessionGroup(config: McpConnectionConfig): string {
  return `${config.integrationId}:${config.transport !== "stdio" ? (config.oauth?.owner ?? "") : ""}`;
}

// JSON leaves out the OAuth connection's `authorize` function; the owner in the group stands for it.
function configKey(config: McpConnectionConfig): string {
  const digest = createHash("sha256").update(JSON.stringify(config)).digest("base64url");
  return `${sessionGroup(config)}:${digest}`;
}

/**
 * Live MCP sessions, reused across calls and requests: one per integration and configuration (so one stdio
 * process per integration), re-initialized when the server expired it, closed when idle or on shutdown.
 */
export class McpSessionPool {
  private readonly entries = new Map<string, Entry>();
  private readonly sweeper: NodeJS.Timeout;
  private readonly open: (config: McpConnectionConfig) => Promise<McpSession>;

  constructor(private readonly options: SessionPoolOptions) {
    this.open = options.open ?? openMcpSession;
    this.sweeper = setInterval(() => void this.closeIdle(), Math.max(1000, Math.min(options.idleMs, 30_000)));
    this.sweeper.unref();
  }

  get size(): number {
    return this.entries.size;
  }

  /** Runs fn with a live session for the config, opening one if needed and retrying once on an expired session. */
  async withSession<T>(config: McpConnectionConfig, fn: (session: McpSession) => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const entry = this.acquire(config);
      entry.inFlight++;
      try {
        const session = await entry.session;
        return await fn(session);
      } catch (error) {
        if (isExpiredSession(error) || isClosed(error)) {
          await this.evict(entry);
          if (isExpiredSession(error) && attempt === 0) {
            logger.info("mcp session expired, reconnecting", { integrationId: config.integrationId });
            continue;
          }
        }
        throw error;
      } finally {
        entry.inFlight--;
        entry.lastUsed = Date.now();
      }
    }
  }

  private acquire(config: McpConnectionConfig): Entry {
    const key = configKey(config);
    const existing = this.entries.get(key);
    if (existing) return existing;
    const group = sessionGroup(config);
    // An edited integration gets a new session; the old configuration's one is closed.
    for (const other of this.entries.values()) {
      if (other.group === group) void this.evict(other);
    }
    const entry: Entry = {
      key,
      integrationId: config.integrationId,
      group,
      session: this.open(config),
      lastUsed: Date.now(),
      inFlight: 0,
    };
    entry.session.then(
      (session) => {
        // The server closing the connection (a crashed stdio process, say) frees the slot for a fresh session.
        const previous = session.client.onclose;
        session.client.onclose = () => {
          previous?.();
          if (this.entries.get(key) === entry) this.entries.delete(key);
        };
      },
      () => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      },
    );
    this.entries.set(key, entry);
    return entry;
  }

  private async evict(entry: Entry) {
    if (this.entries.get(entry.key) === entry) this.entries.delete(entry.key);
    await entry.session.then((session) => session.close()).catch(() => {});
  }

  /** Closes the sessions of one integration, after it was edited, disabled or deleted. */
  async closeIntegration(integrationId: string) {
    await Promise.all(
      [...this.entries.values()].filter((e) => e.integrationId === integrationId).map((e) => this.evict(e)),
    );
  }

  async closeIdle(now = Date.now()) {
    const idle = [...this.entries.values()].filter(
      (e) => e.inFlight === 0 && now - e.lastUsed >= this.options.idleMs,
    );
    await Promise.all(idle.map((entry) => this.evict(entry)));
  }

  async closeAll() {
    clearInterval(this.sweeper);
    await Promise.all([...this.entries.values()].map((entry) => this.evict(entry)));
  }
}
