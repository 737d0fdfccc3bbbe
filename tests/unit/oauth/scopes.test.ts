import { describe, expect, it } from "vitest";
import { proposedScope, scopeOfGrant, scopesSupported, unknownScopes } from "@/lib/oauth-server/scopes";

const names = {
  integrations: [
    { id: "i-linear", slug: "linear" },
    { id: "i-docs", slug: "docs" },
  ],
  capabilities: [{ id: "c-greet", name: "mcp__demo__greet" }],
};

describe("OAuth scopes", () => {
  it("asks for every kind on the gateway, and the integration on its own endpoint", () => {
    expect(scopesSupported("gateway")).toEqual(["knowledge", "integrations", "capabilities"]);
    expect(scopesSupported("integrations/linear")).toEqual(["integration:linear"]);
  });

  it("knows its own scope names and offline_access, nothing else", () => {
    expect(unknownScopes("knowledge integration:linear capability:mcp__demo__greet offline_access")).toEqual(
      [],
    );
    expect(unknownScopes("openid profile integration:Bad!")).toEqual([
      "openid",
      "profile",
      "integration:Bad!",
    ]);
  });

  it("proposes everything for no scope, and only what was named otherwise", () => {
    expect(proposedScope(undefined, names)).toBeNull();
    expect(proposedScope("knowledge integrations capabilities", names)).toBeNull();
    expect(proposedScope("integration:linear", names)).toEqual({
      integrationIds: ["i-linear"],
      capabilityIds: [],
      builtins: false,
    });
    expect(proposedScope("knowledge capabilities offline_access", names)).toEqual({
      integrationIds: [],
      capabilityIds: null,
      builtins: true,
    });
  });

  it("describes a grant by the names of what it reaches", () => {
    expect(scopeOfGrant(null, names)).toBe("knowledge integrations capabilities");
    expect(
      scopeOfGrant({ integrationIds: ["i-docs"], capabilityIds: ["c-greet"], builtins: false }, names),
    ).toBe("integration:docs capability:mcp__demo__greet");
    expect(scopeOfGrant({ integrationIds: [], capabilityIds: [], builtins: true }, names)).toBe("knowledge");
  });
});
