import { createHash } from "node:crypto";
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { logger } from "@/lib/logger";
import type { OpenSessions } from "@/lib/metrics/metrics";
import { countSessionOpened, countSessionReinitialized } from "@/lib/metrics/record";
import { McpProcessLimitError } from "../errors";
import type { McpConnectionConfig } from "../types";
import { type McpSession, openMcpSession } from "./connect";
import { type ProcessLimits, type ProcessSlot, ProcessSlots } from "./process-slots";

interface Entry {
  key: string;
  integrationId: string;
  transport: McpConnectionConfig["transport"];
  /** The integration and whose credentials: an edit replaces that owner's session, not other users'. */
  group: string;
  session: Promise<McpSession>;
  lastUsed: number;
  inFlight: number;
  /** A stdio session's process place; HTTP sessions hold none. */
  slot?: ProcessSlot;
}

export interface SessionPoolOptions {
  idleMs: number;
  /** Caps on stdio processes; unset, none. */
  limits?: ProcessLimits;
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
 * process per integration), re-initialized when the server expired it, closed when idle or on shutdown. Stdio
 * processes are capped in total and per organization: at a cap the least recently used idle one is closed to
 * make room, and with none idle the new one is refused.
 */
export class McpSessionPool {
  private readonly entries = new Map<string, Entry>();
  private readonly sweeper: NodeJS.Timeout;
  private readonly open: (config: McpConnectionConfig) => Promise<McpSession>;
  private readonly slots: ProcessSlots;

  constructor(private readonly options: SessionPoolOptions) {
    this.open = options.open ?? openMcpSession;
    this.slots = new ProcessSlots(options.limits ?? { total: 0, perOrganization: 0 });
    this.sweeper = setInterval(() => void this.closeIdle(), Math.max(1000, Math.min(options.idleMs, 30_000)));
    this.sweeper.unref();
  }

  get size(): number {
    return this.entries.size;
  }

  /** Stdio processes running or starting, of one organization or in all; one being closed counts until it exits. */
  processCount(orgId?: string): number {
    return orgId === undefined ? this.slots.count : this.slots.countOf(orgId);
  }

  /** Sessions held (open or opening), counted by integration and transport. */
  openSessions(): OpenSessions[] {
    const counts = new Map<string, OpenSessions>();
    for (const { integrationId, transport } of this.entries.values()) {
      const key = `${integrationId}:${transport}`;
      const known = counts.get(key);
      if (known) known.count++;
      else counts.set(key, { integrationId, transport, count: 1 });
    }
    return [...counts.values()];
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
            countSessionReinitialized(config.integrationId);
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
    const replaced = [...this.entries.values()].filter((other) => other.group === group);
    const closing = replaced.map((other) => this.evict(other));
    let slot: ProcessSlot | undefined;
    let room: Promise<unknown> | undefined;
    if (config.transport === "stdio") {
      const ownProcesses = replaced.some((other) => other.slot?.orgId === config.orgId);
      ({ slot, room } = this.reserveProcess(config, ownProcesses ? closing : []));
    }
    const entry: Entry = {
      key,
      integrationId: config.integrationId,
      transport: config.transport,
      group,
      session: room ? room.then(() => this.open(config)) : this.open(config),
      lastUsed: Date.now(),
      inFlight: 0,
      slot,
    };
    entry.session.then(
      (session) => {
        // The server closing the connection (a crashed stdio process, say) frees the slot for a fresh session.
        const previous = session.client.onclose;
        session.client.onclose = () => {
          previous?.();
          if (this.entries.get(key) === entry) this.entries.delete(key);
          entry.slot?.release();
        };
      },
      () => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
        // A failed open reports only once its process is gone.
        entry.slot?.release();
      },
    );
    this.entries.set(key, entry);
    countSessionOpened(config.integrationId, config.transport);
    return entry;
  }

  /**
   * Takes a process place for a new stdio session, before its process starts. At a limit, the place of a
   * process being replaced or of the least recently used idle one (the organization's, for its own limit) is
   * taken over: the new process waits in `room` until that one has exited. With neither, the start is refused.
   */
  private reserveProcess(
    config: Extract<McpConnectionConfig, { transport: "stdio" }>,
    replacing: Promise<void>[],
  ): { slot: ProcessSlot; room?: Promise<unknown> } {
    const limit = this.slots.reached(config.orgId);
    let room: Promise<unknown> | undefined;
    if (limit && replacing.length > 0) room = Promise.all(replacing);
    else if (limit) {
      const victim = this.leastRecentlyUsedIdle(limit === "organization" ? config.orgId : undefined);
      if (!victim) throw new McpProcessLimitError(config.integrationId, limit, this.slots.max(limit));
      logger.info("mcp process limit reached, closing the least recently used idle process", {
        limit,
        integrationId: config.integrationId,
        closedIntegrationId: victim.integrationId,
      });
      room = this.evict(victim);
    }
    return { slot: this.slots.take(config.orgId), room };
  }

  private leastRecentlyUsedIdle(orgId?: string): Entry | undefined {
    let found: Entry | undefined;
    for (const entry of this.entries.values()) {
      if (!entry.slot || entry.inFlight > 0 || (orgId !== undefined && entry.slot.orgId !== orgId)) continue;
      if (!found || entry.lastUsed < found.lastUsed) found = entry;
    }
    return found;
  }

  /** Closes a session; its process place is free once the process has exited. */
  private async evict(entry: Entry) {
    if (this.entries.get(entry.key) === entry) this.entries.delete(entry.key);
    await entry.session.then((session) => session.close()).catch(() => {});
    entry.slot?.release();
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
