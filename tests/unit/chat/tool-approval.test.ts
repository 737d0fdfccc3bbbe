import { describe, expect, it } from "vitest";
import { annotationLabels, approvalReason, asksBeforeRunning } from "@/lib/chat/tool-approval";

describe("why a tool call waits for the user", () => {
  it("names the agent's policy when it asks before every tool, whatever the tool says", () => {
    expect(approvalReason("always", { readOnlyHint: true })).toBe("This agent asks before every tool.");
  });

  it("never asks under `never`", () => {
    expect(approvalReason("never", { destructiveHint: true })).toBeNull();
    expect(asksBeforeRunning("never", undefined)).toBe(false);
  });

  it("under `risky`, names what the tool says or fails to say", () => {
    expect(approvalReason("risky", { readOnlyHint: false, destructiveHint: true })).toBe(
      "This tool says it may be destructive.",
    );
    expect(approvalReason("risky", { readOnlyHint: true, destructiveHint: true })).toBe(
      "This tool says it may be destructive.",
    );
    expect(approvalReason("risky", undefined)).toBe("This tool is not marked read-only.");
    expect(approvalReason("risky", { readOnlyHint: false, destructiveHint: false })).toBe(
      "This tool is not marked read-only.",
    );
    expect(approvalReason("risky", { readOnlyHint: true })).toBeNull();
    expect(asksBeforeRunning("risky", { readOnlyHint: true })).toBe(false);
  });

  it("lists only the hints a tool gives, not MCP's defaults", () => {
    expect(annotationLabels(undefined)).toEqual([]);
    expect(annotationLabels({ title: "Echo" })).toEqual([]);
    expect(annotationLabels({ readOnlyHint: true, idempotentHint: true, openWorldHint: true })).toEqual([
      "read-only",
      "idempotent",
      "reaches outside services",
    ]);
  });
});
