import { describe, expect, it } from "vitest";
import { expiryLabel, scopeSummary } from "@/lib/api-keys/key-descriptions";
import { KNOWLEDGE_ONLY } from "@/lib/api-keys/key-scope";

const now = new Date("2026-03-10T12:00:00Z");
const names = {
  integrations: new Map([["i1", "GitHub"]]),
  capabilities: new Map([["c1", "mcp__data__transform"]]),
};

describe("how a key reads in lists", () => {
  it("says when it expires", () => {
    expect(expiryLabel(null, now)).toEqual({ text: "Never expires", expired: false });
    expect(expiryLabel("2026-03-22T12:00:00Z", now).text).toBe("Expires in 12 days");
    expect(expiryLabel("2026-03-11T12:00:00Z", now).text).toBe("Expires in 1 day");
    expect(expiryLabel("2026-03-10T17:00:00Z", now).text).toBe("Expires in 5 hours");
    expect(expiryLabel("2026-03-10T12:20:00Z", now).text).toBe("Expires in less than an hour");
    expect(expiryLabel("2026-03-10T12:00:00Z", now)).toEqual({ text: "Expired", expired: true });
  });

  it("sums up its scope with names", () => {
    expect(scopeSummary(null, names)).toBe("All tools");
    expect(scopeSummary(KNOWLEDGE_ONLY, names)).toBe("Read-only knowledge");
    expect(scopeSummary({ integrationIds: [], capabilityIds: [], builtins: false }, names)).toBe("No tools");
    expect(
      scopeSummary({ integrationIds: ["i1", "gone"], capabilityIds: null, builtins: false }, names),
    ).toBe("Integrations GitHub, (deleted integration) · all capabilities · no built-in tools");
    expect(scopeSummary({ integrationIds: null, capabilityIds: ["c1"], builtins: true }, names)).toBe(
      "All integrations · capability mcp__data__transform · built-in knowledge tools",
    );
  });
});
