import { describe, expect, it } from "vitest";
import { KNOWLEDGE_ONLY, normalizeScope, toolScopeOf } from "@/lib/api-keys/key-scope";

const ID = "00000000-0000-4000-8000-000000000001";

describe("an API key's scope", () => {
  it("maps to the catalog scope: null lists narrow, empty lists allow none, built-ins off lists none", () => {
    expect(toolScopeOf(null)).toEqual({});
    expect(toolScopeOf(KNOWLEDGE_ONLY)).toEqual({ integrationIds: [], capabilityIds: [] });
    expect(toolScopeOf({ integrationIds: [ID], capabilityIds: null, builtins: false })).toEqual({
      integrationIds: [ID],
      builtins: [],
    });
  });

  it("allows nothing when what is stored has the wrong shape", () => {
    expect(toolScopeOf({ integrationIds: "all" })).toEqual({
      builtins: [],
      integrationIds: [],
      capabilityIds: [],
    });
  });

  it("stores a scope that restricts nothing as null, and drops repeated ids", () => {
    expect(normalizeScope({ integrationIds: null, capabilityIds: null, builtins: true })).toBeNull();
    expect(normalizeScope({ integrationIds: [ID, ID], capabilityIds: null, builtins: true })).toEqual({
      integrationIds: [ID],
      capabilityIds: null,
      builtins: true,
    });
  });
});
