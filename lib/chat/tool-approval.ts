import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { ToolApprovalPolicy } from "./tool-approval-schema";

/**
 * Why a call of a tool with these annotations waits for the user under the agent's policy, or null when it runs
 * without asking. Under `risky` only a tool that says it is read-only runs without asking; MCP's defaults
 * (readOnlyHint false, destructiveHint true) make a tool without annotations ask, and a tool that says both
 * read-only and destructive asks too.
 */
export function approvalReason(
  policy: ToolApprovalPolicy,
  annotations: ToolAnnotations | undefined,
): string | null {
  if (policy === "always") return "This agent asks before every tool.";
  if (policy === "never") return null;
  if (annotations?.destructiveHint === true) return "This tool says it may be destructive.";
  if (annotations?.readOnlyHint !== true) return "This tool is not marked read-only.";
  return null;
}

/** Whether a call of a tool with these annotations waits for the user under the agent's policy. */
export function asksBeforeRunning(
  policy: ToolApprovalPolicy,
  annotations: ToolAnnotations | undefined,
): boolean {
  return approvalReason(policy, annotations) !== null;
}

/** The hints a tool gives of itself, as the approval card lists them; MCP's defaults are not claims. */
export function annotationLabels(annotations: ToolAnnotations | undefined): string[] {
  if (!annotations) return [];
  const labels: string[] = [];
  if (annotations.readOnlyHint === true) labels.push("read-only");
  if (annotations.destructiveHint === true) labels.push("destructive");
  if (annotations.destructiveHint === false) labels.push("not destructive");
  if (annotations.idempotentHint === true) labels.push("idempotent");
  if (annotations.openWorldHint === true) labels.push("reaches outside services");
  if (annotations.openWorldHint === false) labels.push("no outside services");
  return labels;
}
