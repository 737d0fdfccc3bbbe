import { createHash } from "node:crypto";
import { logger } from "@/lib/logger";
import type { OpenSessions } from "@/lib/metrics/metrics";
import {
  countSessionOpened,
  countSessionReinitialized,
  countStateChange,
  type IntegrationStateSample,
} from "@/lib/metrics/record";
import { McpCallInterruptedError, McpProcessLimitError, McpUnavailableError } from "../errors";
import type { IntegrationState } from "../integration-state";
import type { McpConnectionConfig } from "../types";
import { Circuit, type CircuitOptions } from "./circuit";
import { type McpSession, openMcpSession } from "./connect";
import { describeMcpFailure } from "./describe-error";
import { type Failure, failureOf, speaksOfTheServer } from "./failure-kind";
import { type ProcessLimits, type ProcessSlot, ProcessSlots } from "./process-slots";

interface Entry {
  key: string;
  integrationId: string;
  transport: McpConnectionConfig["transport"];
  /** The integration, whose credentials and which caller's session: an edit replaces only that one's session. */
  group: string;
  sessionKey?: string;
  session: Promise<McpSession>;
  lastUsed: number;
  inFlight: number;
  /** A stdio session's process place; HTTP sessions hold none. */
  slot?: ProcessSlot;
  /** Why this app closed it, for the calls it interrupts. */
  closedBecause?: string;
  /** Out of the pool: closed once its last call ends. */
  retired?: boolean;
  /** The session, once open. */
  live?: McpSession;
}

/** One integration's state and what is needed to try its server again by itself. */
interface Watch {
  circuit: Circuit;
  /** The configuration of its latest call: what a probe connects with. */
  config: McpConnectionConfig;
  /** When a call last wanted the server: probes run only while someone does. */
  wantedAt: number;
  timer?: NodeJS.Timeout;
}

export interface SessionPoolOptions {
  idleMs: number;
  /** Caps on stdio processes; unset, none. */
  limits?: ProcessLimits;
  open?: (config: McpConnectionConfig) => Promise<McpSession>;
  /** How long a failing server is left alone before it is tried again (doubling up to the maximum). */
  backoff?: Pick<CircuitOptions, "backoffMs" | "maxBackoffMs">;
}

/** How a call uses the pool: what it asks, whether asking twice is harmless, and who may cancel it. */
export interface CallOptions {
  /** The MCP method, for logs; a tools/call is never slow by the clock (tools may take their time). */
  method: string;
  /** True when running it twice changes nothing (lists, reads, gets, ping): then it is retried on a broken session. */
  idempotent: boolean;
  /** The caller's cancellation: a call it cancels says nothing of the server. */
  signal?: AbortSignal;
}

const DEFAULT_BACKOFF = { backoffMs: 1000, maxBackoffMs: 60_000 };

function sessionGroup(config: McpConnectionConfig): string {
  if (config.transport === "stdio") return `${config.integrationId}:`;
  return `${config.integrationId}:${config.oauth?.owner ?? ""}:${config.sessionKey ?? ""}`;
}

// JSON leaves out the OAuth connection's `authorize` function; the owner in the group stands for it.
function configKey(config: McpConnectionConfig): string {
  const { sessionKey: _own, ...shared } = config;
  const digest = createHash("sha256")
    .update(JSON.stringify(config.transport === "stdio" ? shared : config))
    .digest("base64url");
  return `${sessionGroup(config)}:${digest}`;
}

// A call that may have run is never repeated; one that cannot have (the server forgot the session, or refused the
// connection) or that changes nothing is, once, on a fresh session.
function retries(failure: Failure, idempotent: boolean): boolean {
  if (failure.kind === "session-lost") return true;
  return idempotent && failure.kind === "dropped";
}

// Failures after which the session is of no more use.
const SPOILS_SESSION = new Set<Failure["kind"]>(["session-lost", "refused", "dropped"]);

/**
 * Live MCP sessions, reused across calls and requests: one per integration and configuration (so one stdio
 * process per integration), or per caller's session where the caller keeps state with the server. A session the
 * server forgot (it restarted) or whose connection broke is replaced, and a call that cannot have run, or may run
 * twice, is retried once on the new one. Sessions close when idle or on shutdown.
 *
 * Each integration's state (healthy, degraded, failing, recovering) follows its calls: a failing server's calls
 * are refused at once until its next try, which a call or a probe of the pool's own makes, waiting longer after
 * each failed try. Stdio processes are capped in total and per organization: at a cap the least recently used
 * idle one is closed to make room, and with none idle the new one is refused.
 */
export class McpSessionPool {
  private readonly entries = new Map<string, Entry>();
  private readonly watches = new Map<string, Watch>();
  private readonly sweeper: NodeJS.Timeout;
  private readonly open: (config: McpConnectionConfig) => Promise<McpSession>;
  private readonly slots: ProcessSlots;
  private readonly backoff: Pick<CircuitOptions, "backoffMs" | "maxBackoffMs">;

  constructor(private readonly options: SessionPoolOptions) {
    this.open = options.open ?? openMcpSession;
    this.slots = new ProcessSlots(options.limits ?? { total: 0, perOrganization: 0 });
    this.backoff = options.backoff ?? DEFAULT_BACKOFF;
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

  /** The state of each integration this process has talked to. */
  integrationStates(): IntegrationStateSample[] {
    return [...this.watches].flatMap(([integrationId, watch]) => {
      const state = watch.circuit.state;
      return state ? [{ integrationId, state: state.state }] : [];
    });
  }

  /** The integration's state as this process knows it, or undefined when it has not talked to it. */
  stateOf(integrationId: string): IntegrationState | undefined {
    return this.watches.get(integrationId)?.circuit.state;
  }

  /**
   * Runs fn with a live session for the config, opening one if needed. A failing integration's call is refused at
   * once (McpUnavailableError) until its next try. Failures come out as domain errors (describeMcpFailure).
   */
  async withSession<T>(
    config: McpConnectionConfig,
    fn: (session: McpSession) => Promise<T>,
    options: CallOptions = { method: "request", idempotent: false },
  ): Promise<T> {
    const watch = this.watch(config, true);
    const admitted = watch.circuit.admit();
    if (!admitted.go) {
      this.scheduleProbe(config.integrationId);
      throw new McpUnavailableError(config.integrationId, admitted.state);
    }
    return this.observed(watch, config, options, { trial: admitted.trial }, () =>
      this.attempt(config, fn, options),
    );
  }

  /**
   * Runs fn on a session of its own, whatever the integration's state, and closes it after: a check of the server
   * itself (health checks, "Test connection"), which settles its state. A stdio server keeps its one process, which
   * is replaced first when the integration is failing, and the check does not count as using it.
   */
  async withFreshSession<T>(
    config: McpConnectionConfig,
    fn: (session: McpSession) => Promise<T>,
    options: CallOptions,
  ): Promise<T> {
    const watch = this.watch(config, true);
    const run = async () => {
      if (config.transport === "stdio") {
        const state = watch.circuit.state?.state;
        if (state === "failing" || state === "recovering")
          await this.closeGroup(sessionGroup(config), "the server is being restarted");
        return this.attempt(config, fn, options, { quiet: true });
      }
      return this.runAlone(config, fn, options);
    };
    return this.observed(watch, config, options, { conclusive: true }, run);
  }

  /** Opens a session outside the pool, runs fn on it, and closes it. */
  private async runAlone<T>(
    config: McpConnectionConfig,
    fn: (session: McpSession) => Promise<T>,
    options: CallOptions,
  ): Promise<Attempt<T>> {
    countSessionOpened(config.integrationId, config.transport);
    let session: McpSession | undefined;
    try {
      session = await this.open(config);
      return { value: await fn(session), reconnected: false };
    } catch (error) {
      const failure = this.failureOf(error, config, session, options);
      throw withFailure(describeMcpFailure(error, config, failure), failure);
    } finally {
      if (session) void session.close().catch(() => {});
    }
  }

  /** Runs a call and tells the integration's state how it went (unless the caller gave up, or it was ours). */
  private async observed<T>(
    { circuit }: Watch,
    config: McpConnectionConfig,
    options: CallOptions,
    how: { trial?: boolean; conclusive?: boolean },
    call: () => Promise<Attempt<T>>,
  ): Promise<T> {
    const started = performance.now();
    try {
      const { value, reconnected } = await call();
      const elapsed = performance.now() - started;
      // A listing or read that takes over half the timeout (or 5 s) says the server struggles; tools may take long.
      const slow = options.method !== "tools/call" && elapsed > Math.min(5000, config.timeoutMs / 2);
      circuit.record({ ok: true, slow, reconnected }, how);
      return value;
    } catch (error) {
      const failure = (error as { failure?: Failure }).failure;
      if (options.signal?.aborted || !failure || !speaksOfTheServer(failure.kind)) {
        if (how.trial) circuit.abandon();
      } else {
        circuit.record(
          {
            ok: false,
            cause: failure.cause,
            timeout: failure.kind === "timeout",
            // Asking a server that refuses, or a host that does not resolve, again costs nothing and loads no one.
            cheap: failure.kind === "refused" || failure.kind === "unreachable",
          },
          how,
        );
      }
      throw error;
    }
  }

  /**
   * Runs fn on the pooled session, retrying once on a fresh one when the server forgot the session, or when the
   * connection broke during a call that changes nothing.
   */
  private async attempt<T>(
    config: McpConnectionConfig,
    fn: (session: McpSession) => Promise<T>,
    options: CallOptions,
    { quiet = false }: { quiet?: boolean } = {},
  ): Promise<Attempt<T>> {
    let reconnected = false;
    for (let attempt = 0; ; attempt++) {
      const { entry, opened } = this.acquire(config);
      entry.inFlight++;
      let session: McpSession | undefined;
      try {
        session = await entry.session;
        return { value: await fn(session), reconnected };
      } catch (error) {
        if (entry.closedBecause && !options.signal?.aborted)
          throw withFailure(new McpCallInterruptedError(config.integrationId, entry.closedBecause), {
            kind: "ours",
            cause: entry.closedBecause,
          });
        const failure = this.failureOf(error, config, session, options);
        if (session && SPOILS_SESSION.has(failure.kind)) this.retire(entry);
        // Only a session that served before can have been forgotten; a new one failing so is not tried again.
        if (attempt === 0 && !opened && session && retries(failure, options.idempotent)) {
          reconnected ||= failure.kind === "session-lost";
          if (failure.kind === "session-lost") countSessionReinitialized(config.integrationId);
          logger.info("mcp session lost, retrying on a new one", {
            integrationId: config.integrationId,
            method: options.method,
            cause: failure.cause,
          });
          continue;
        }
        throw withFailure(describeMcpFailure(error, config, failure), failure);
      } finally {
        entry.inFlight--;
        if (!quiet) entry.lastUsed = Date.now();
        if (entry.retired && entry.inFlight === 0) void this.evict(entry);
      }
    }
  }

  private failureOf(
    error: unknown,
    config: McpConnectionConfig,
    session: McpSession | undefined,
    options: CallOptions,
  ): Failure {
    if (options.signal?.aborted) return { kind: "ours", cause: "cancelled by its caller" };
    return failureOf(error, config.timeoutMs, Boolean(session?.sessionId()));
  }

  /**
   * The integration's state and probe, made on its first call. Calls and checks (`wanted`) keep its probes going
   * for the idle time; the probes themselves do not.
   */
  private watch(config: McpConnectionConfig, wanted: boolean): Watch {
    let watch = this.watches.get(config.integrationId);
    if (!watch) {
      const integrationId = config.integrationId;
      const circuit = new Circuit(this.backoff, (state) => this.stateChanged(integrationId, state));
      watch = { circuit, config, wantedAt: 0 };
      this.watches.set(integrationId, watch);
    }
    watch.config = config;
    if (wanted) watch.wantedAt = Date.now();
    return watch;
  }

  private stateChanged(integrationId: string, state: IntegrationState) {
    const watch = this.watches.get(integrationId);
    countStateChange(integrationId, state.state);
    logger.info("integration state changed", { integrationId, state: state.state, cause: state.cause });
    if (state.state === "failing") this.scheduleProbe(integrationId);
    try {
      watch?.config.onStateChange?.(state);
    } catch (error) {
      logger.warn("integration state not recorded", { integrationId, err: error });
    }
  }

  /**
   * Tries a failing server again when its wait is over, by itself, as long as calls wanted it within the idle
   * time: a fresh connection (a new process for stdio) and a ping. Its state says how that went.
   */
  private scheduleProbe(integrationId: string) {
    const watch = this.watches.get(integrationId);
    const due = watch?.circuit.nextTryAt;
    if (!watch || due === undefined || watch.timer) return;
    watch.timer = setTimeout(
      () => {
        watch.timer = undefined;
        if (this.watches.get(integrationId) !== watch || watch.circuit.state?.state !== "failing") return;
        if (Date.now() - watch.wantedAt > this.options.idleMs) return;
        if (!watch.circuit.startTrial()) return;
        void this.probe(watch).catch(() => {});
      },
      Math.max(0, due - Date.now()),
    );
    watch.timer.unref();
  }

  private async probe(watch: Watch) {
    const config = watch.config;
    const ping = (session: McpSession) => session.client.ping({ timeout: config.timeoutMs });
    const options = { method: "ping", idempotent: true };
    await this.observed(watch, config, options, { trial: true }, async () => {
      if (config.transport === "stdio") {
        await this.closeGroup(sessionGroup(config), "the server is being restarted");
        return this.attempt(config, ping, options, { quiet: true });
      }
      // The probe's session becomes the pooled one, so the first call after it needs no handshake.
      countSessionOpened(config.integrationId, config.transport);
      let session: McpSession | undefined;
      try {
        session = await this.open(config);
        await ping(session);
      } catch (error) {
        if (session) void session.close().catch(() => {});
        const failure = failureOf(error, config.timeoutMs);
        throw withFailure(describeMcpFailure(error, config, failure), failure);
      }
      const opened = session;
      // The sessions kept from before it failed are likely dead: the probe's replaces them.
      for (const entry of this.entries.values())
        if (entry.integrationId === config.integrationId && entry.inFlight === 0) void this.evict(entry);
      if (!this.entries.has(configKey(config))) this.register(config, Promise.resolve(opened));
      else void opened.close().catch(() => {});
      return { value: undefined, reconnected: false };
    });
  }

  private acquire(config: McpConnectionConfig): { entry: Entry; opened: boolean } {
    const key = configKey(config);
    const existing = this.entries.get(key);
    if (existing && !existing.live?.stale) return { entry: existing, opened: false };
    // A session the server showed it no longer serves is replaced before it is used.
    if (existing) this.retire(existing);
    const group = sessionGroup(config);
    // An edited integration gets a new session; the old configuration's one is closed.
    const replaced = [...this.entries.values()].filter((other) => other.group === group);
    const closing = replaced.map((other) => this.evict(other, "the integration's settings changed"));
    let slot: ProcessSlot | undefined;
    let room: Promise<unknown> | undefined;
    if (config.transport === "stdio") {
      const ownProcesses = replaced.some((other) => other.slot?.orgId === config.orgId);
      ({ slot, room } = this.reserveProcess(config, ownProcesses ? closing : []));
    }
    countSessionOpened(config.integrationId, config.transport);
    const session = room ? room.then(() => this.open(config)) : this.open(config);
    return { entry: this.register(config, session, slot), opened: true };
  }

  /** Keeps a session (open or opening) in the pool under its configuration. */
  private register(config: McpConnectionConfig, session: Promise<McpSession>, slot?: ProcessSlot): Entry {
    const key = configKey(config);
    const entry: Entry = {
      key,
      integrationId: config.integrationId,
      transport: config.transport,
      group: sessionGroup(config),
      sessionKey: config.transport === "stdio" ? undefined : config.sessionKey,
      session,
      lastUsed: Date.now(),
      inFlight: 0,
      slot,
    };
    session.then(
      (opened) => {
        entry.live = opened;
        // The server closing the connection (a crashed stdio process, say) frees the slot for a fresh session.
        const previous = opened.client.onclose;
        opened.client.onclose = () => {
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
      room = this.evict(victim, "its process was closed to make room for another");
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

  /** Takes a spoilt session out of the pool, so the next call opens a new one; it closes once its calls end. */
  private retire(entry: Entry) {
    if (this.entries.get(entry.key) === entry) this.entries.delete(entry.key);
    entry.retired = true;
    if (entry.inFlight === 0) void this.evict(entry);
  }

  /** Closes a session; calls still on it fail as interrupted, for `reason`. Its process place is free once it exited. */
  private async evict(entry: Entry, reason?: string) {
    if (this.entries.get(entry.key) === entry) this.entries.delete(entry.key);
    if (reason) entry.closedBecause ??= reason;
    await entry.session.then((session) => session.close()).catch(() => {});
    entry.slot?.release();
  }

  private async closeGroup(group: string, reason: string) {
    await Promise.all(
      [...this.entries.values()].filter((e) => e.group === group).map((e) => this.evict(e, reason)),
    );
  }

  /** Closes the sessions of one integration, after it was edited, disabled or deleted; its state starts over. */
  async closeIntegration(
    integrationId: string,
    reason = "the integration was changed, disabled or deleted while it ran",
  ) {
    const watch = this.watches.get(integrationId);
    clearTimeout(watch?.timer);
    this.watches.delete(integrationId);
    await Promise.all(
      [...this.entries.values()]
        .filter((e) => e.integrationId === integrationId)
        .map((e) => this.evict(e, reason)),
    );
  }

  /** Closes the upstream sessions a caller's session had (it ended). */
  async closeSessionsOf(sessionKey: string) {
    await Promise.all(
      [...this.entries.values()]
        .filter((e) => e.sessionKey === sessionKey)
        .map((e) => this.evict(e, "the client's session ended")),
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
    for (const watch of this.watches.values()) clearTimeout(watch.timer);
    await Promise.all(
      [...this.entries.values()].map((entry) => this.evict(entry, "Switchboard is shutting down")),
    );
  }
}

/** A call's value, and whether the server had forgotten the session on the way (for the state). */
type Attempt<T> = { value: T; reconnected: boolean };

/** The error with what it said of the server attached, for the state (`observed`) to read. */
function withFailure<E extends Error>(error: E, failure: Failure): E {
  return Object.assign(error, { failure });
}
