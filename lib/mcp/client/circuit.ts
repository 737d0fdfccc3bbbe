import type { IntegrationState, IntegrationStateName } from "../integration-state";

export interface CircuitOptions {
  /** The first wait before a failing server is tried again; it doubles with each failed try, up to maxBackoffMs. */
  backoffMs: number;
  maxBackoffMs: number;
  now?: () => number;
}

/**
 * How one exchange with the server went, as far as the server's state goes. A `cheap` failure (a refused
 * connection, a host that does not resolve) cost the caller nothing and the server no work.
 */
export type Outcome =
  | { ok: true; slow?: boolean; reconnected?: boolean }
  | { ok: false; cause: string; timeout?: boolean; cheap?: boolean };

// Calls in a row that must go well before a degraded server counts as healthy again.
const GOOD_CALLS_TO_HEAL = 3;
// Failures in a row that make a server failing (a timeout, or a failed check, does at once).
const FAILURES_TO_FAIL = 2;

/**
 * One integration's state, from real traffic and checks (see IntegrationState): a circuit breaker. While failing,
 * calls are refused at once until the next try is due; the first call after that (or a probe) is the try, and
 * others are refused while it runs. A failed try doubles the wait. A server that only refuses connections (or a
 * host that does not resolve) costs nobody anything to ask, so its calls still go (the first one after it is back
 * answers); the probes still wait.
 * `onChange` hears every change of state or cause.
 */
export class Circuit {
  private current: IntegrationState | undefined;
  private failures = 0;
  private goodCalls = 0;
  private backoffMs: number;
  private downSince: number | undefined;
  private trying = false;
  /** Whether the failing server's calls wait for the next try (not when its failures cost nothing). */
  private blocking = true;
  private readonly now: () => number;

  constructor(
    private readonly options: CircuitOptions,
    private readonly onChange: (state: IntegrationState) => void,
  ) {
    this.backoffMs = options.backoffMs;
    this.now = options.now ?? Date.now;
  }

  /** The state, or undefined while nothing is known. */
  get state(): IntegrationState | undefined {
    return this.current;
  }

  /** When the next try of a failing server is due. */
  get nextTryAt(): number | undefined {
    return this.current?.state === "failing" ? this.current.nextTryAt?.getTime() : undefined;
  }

  /**
   * Whether a call may go now. Refused while failing until the next try is due; the call that finds it due is the
   * try (`trial`), and must end in `record` or `abandon`.
   */
  admit(): { go: true; trial: boolean } | { go: false; state: IntegrationState } {
    const current = this.current;
    if (!current || (current.state !== "failing" && current.state !== "recovering") || !this.blocking)
      return { go: true, trial: false };
    if (this.trying || (current.nextTryAt && current.nextTryAt.getTime() > this.now()))
      return { go: false, state: current };
    this.startTrial();
    return { go: true, trial: true };
  }

  /** Starts a try of a failing server (a probe's), unless one is under way; false if one is. */
  startTrial(): boolean {
    if (this.trying) return false;
    this.trying = true;
    this.set("recovering", `trying again (last failure: ${this.lastFailure})`);
    return true;
  }

  /** A try that ended without saying anything of the server (its caller gave up): the next call tries again. */
  abandon(): void {
    if (!this.trying) return;
    this.trying = false;
    this.set("failing", this.lastFailure, this.now());
  }

  private lastFailure = "it did not answer";

  /**
   * What an exchange said of the server. `trial` is the outcome of the try `admit` or `startTrial` began;
   * `conclusive` is a check's (health check, connection test, probe), which settles the state at once.
   */
  record(
    outcome: Outcome,
    { trial = false, conclusive = false }: { trial?: boolean; conclusive?: boolean } = {},
  ) {
    if (trial) this.trying = false;
    const down = this.current?.state === "failing" || this.current?.state === "recovering";
    if (outcome.ok) {
      this.failures = 0;
      if (down) {
        const seconds = Math.round((this.now() - (this.downSince ?? this.now())) / 1000);
        this.backoffMs = this.options.backoffMs;
        this.downSince = undefined;
        this.goodCalls = 0;
        this.trying = false;
        return this.set("healthy", `answering again after ${seconds} s`);
      }
      if (outcome.reconnected) {
        this.goodCalls = 0;
        return this.set("degraded", "the server restarted and forgot our session; reconnected");
      }
      if (outcome.slow) {
        this.goodCalls = 0;
        return this.set("degraded", "answering slowly (over half its timeout)");
      }
      if (this.current?.state === "degraded") {
        this.goodCalls += 1;
        if (this.goodCalls >= GOOD_CALLS_TO_HEAL) this.set("healthy", "answering normally again");
        return;
      }
      if (!this.current) this.set("healthy", "answering");
      return;
    }
    this.goodCalls = 0;
    this.lastFailure = outcome.cause;
    this.blocking = !outcome.cheap;
    if (down) {
      // Calls that were under way when it started failing say nothing new; a failed try waits twice as long.
      if (!trial && !conclusive) return;
      this.backoffMs = Math.min(this.backoffMs * 2, this.options.maxBackoffMs);
      return this.set("failing", outcome.cause, this.now() + this.backoffMs);
    }
    this.failures += 1;
    if (conclusive || outcome.timeout || this.failures >= FAILURES_TO_FAIL) {
      this.downSince = this.now();
      this.backoffMs = this.options.backoffMs;
      return this.set("failing", outcome.cause, this.now() + this.backoffMs);
    }
    this.set("degraded", outcome.cause);
  }

  private set(state: IntegrationStateName, cause: string, nextTryAt?: number): void {
    const previous = this.current;
    if (previous?.state === state && previous.cause === cause && nextTryAt === undefined) return;
    this.current = {
      state,
      cause,
      changedAt: previous?.state === state ? previous.changedAt : new Date(this.now()),
      ...(nextTryAt !== undefined ? { nextTryAt: new Date(nextTryAt) } : {}),
    };
    this.onChange(this.current);
  }
}
