/** What one top-level request may spend on capabilities, however deep they call each other. */
export const REQUEST_BUDGET = {
  /** Sandbox runs in all: the top-level capability and every capability it reaches. */
  sandboxRuns: 20,
  /** `tools.call`s in all, across every run of the request. */
  toolCalls: 100,
} as const;

interface Spent {
  sandboxRuns: number;
  toolCalls: number;
  readonly deadline: number;
  readonly timeoutMs: number;
}

/**
 * One request's budget, carried down the whole tree of capability runs: total sandbox runs, total tool calls
 * and one wall-clock deadline. Its signal fires when the request is cancelled or the deadline passes; each
 * nested run's view also fires when the run that called it ends, so nothing outlives its caller.
 */
export class RunBudget {
  private constructor(
    private readonly spent: Spent,
    readonly signal: AbortSignal,
  ) {}

  static start({ timeoutMs, signal }: { timeoutMs: number; signal?: AbortSignal }): RunBudget {
    const deadline = AbortSignal.timeout(timeoutMs);
    return new RunBudget(
      { sandboxRuns: 0, toolCalls: 0, deadline: Date.now() + timeoutMs, timeoutMs },
      signal ? AbortSignal.any([signal, deadline]) : deadline,
    );
  }

  /** The same budget for calls made by a run, cancelled also when that run ends. */
  within(runEnded: AbortSignal): RunBudget {
    return new RunBudget(this.spent, AbortSignal.any([this.signal, runEnded]));
  }

  remainingMs(): number {
    return Math.max(0, this.spent.deadline - Date.now());
  }

  /** Counts one sandbox run, or says why the request may not start another. */
  spendSandboxRun(): string | undefined {
    if (this.spent.sandboxRuns >= REQUEST_BUDGET.sandboxRuns)
      return `This request has already run ${REQUEST_BUDGET.sandboxRuns} capabilities, the most one request may run.`;
    this.spent.sandboxRuns++;
    return undefined;
  }

  /** Counts one `tools.call`, or says why the request may not make another. */
  spendToolCall(): string | undefined {
    if (this.spent.toolCalls >= REQUEST_BUDGET.toolCalls)
      return `This request's capabilities have already made ${REQUEST_BUDGET.toolCalls} tool calls, the most one request may make.`;
    this.spent.toolCalls++;
    return undefined;
  }

  /** Why the budget's signal fired, in words for the code or the caller. */
  abortMessage(): string {
    return this.remainingMs() === 0
      ? `The request's capabilities ran out of time (${this.spent.timeoutMs} ms in all).`
      : "The request was cancelled before the capability finished.";
  }
}
