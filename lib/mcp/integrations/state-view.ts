import type { McpIntegrationRow } from "@/db/schema";
import type { IntegrationStateName } from "../integration-state";

/** An integration's state as the pages show it: what, why, and since when (ISO). */
export interface IntegrationStateView {
  state: IntegrationStateName;
  cause: string;
  since: string;
}

/** The state recorded on the integration's row, or null while none was. */
export function stateView(
  row: Pick<McpIntegrationRow, "state" | "stateCause" | "stateChangedAt">,
): IntegrationStateView | null {
  if (!row.state || !row.stateChangedAt) return null;
  return { state: row.state, cause: row.stateCause ?? "", since: row.stateChangedAt.toISOString() };
}
