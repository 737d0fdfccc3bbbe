import { describe, expect, it } from "vitest";
import { expiryLabel, scopeSummary } from "@/lib/api-keys/key-descriptions";
import { KNOWLEDGE_ONLY } from "@/lib/api-keys/key-scope";

const now = new Date("2026-03-10T12:00:00Z");
const names = {
  integrations: new Map([["i1", "GitHub"]]),
  capabilities: new Map([["c1", "mcp__data__transform"]]),
};

describe("how a key reads in lists", () => {
  // The time is 2026-03-10T12:00:00Z.
  it.each([
    ["Never expires", null, false],
    ["Expires in 12 days", "2026-03-22T12:00:00Z", false],
    ["Expires in 1 day", "2026-03-11T12:00:00Z", false],
    ["Expires in 5 hours", "2026-03-10T17:00:00Z", false],
    ["Expires in less than an hour", "2026-03-10T12:20:00Z", false],
    ["Expired", "2026-03-10T12:00:00Z", true],
  ])("says %j for an expiry of %s", (text, expiresAt, expired) => {
    expect(expiryLabel(expiresAt, now)).toEqual({ text, expired });
  });

  it.each([
    ["All tools", null],
    ["Read-only knowledge", KNOWLEDGE_ONLY],
    ["No tools", { integrationIds: [], capabilityIds: [], builtins: false }],
    [
      "Integrations GitHub, (deleted integration) · all capabilities · no built-in tools",
      { integrationIds: ["i1", "gone"], capabilityIds: null, builtins: false },
    ],
    [
      "All integrations · capability mcp__data__transform · built-in knowledge tools",
      { integrationIds: null, capabilityIds: ["c1"], builtins: true },
    ],
  ])("sums up its scope with names: %s", (summary, scope) => {
    expect(scopeSummary(scope, names)).toBe(summary);
  });
});
