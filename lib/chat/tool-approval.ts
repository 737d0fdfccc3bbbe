import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { ToolApprovalPolicy } from "./tool-approval-schema";

/**
 * Whether a call of a tool with these annotations waits for the user under the agent's policy. Under `risky`
 * only a tool that says it is read-only runs without asking; MCP's defaults (readOnlyHint false, destructiveHint
 * true) make a tool without annotations ask, and a tool that says both read-only and destructive asks too.
 */
export function asksBeforeRunning(
  policy: ToolApprovalPolicy,
  annotations: ToolAnnotations | undefined,
): boolean {
  if (policy === "always") return true;
  if (policy === "never") return false;
  return annotations?.readOnlyHint !== true || annotations.destructiveHint === true;
}
