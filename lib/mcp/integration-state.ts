/**
 * How an integration's server is doing, from the calls made to it and from its checks: healthy; degraded (it
 * answers, but slowly, or after a reconnect, or some calls failed); failing (it does not answer: calls are refused
 * at once until the next try); recovering (a try is under way after failing).
 */
export type IntegrationStateName = "healthy" | "degraded" | "failing" | "recovering";

export const INTEGRATION_STATES: readonly IntegrationStateName[] = [
  "healthy",
  "degraded",
  "failing",
  "recovering",
];

export interface IntegrationState {
  state: IntegrationStateName;
  /** Why, in plain words ("connection refused", "timed out after 30 s"); never a host path or a stack. */
  cause: string;
  /** When it last changed state. */
  changedAt: Date;
  /** For a failing integration: when calls are let through again. */
  nextTryAt?: Date;
}
