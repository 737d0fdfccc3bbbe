import { describe, expect, it } from "vitest";
import { capabilityToolName, isCapabilityToolName } from "@/lib/capabilities/tool-name";
import {
  claimUniqueNames,
  couldBeIntegrationToolName,
  integrationToolName,
  MAX_TOOL_NAME,
  TOOL_NAME_PATTERN,
} from "@/lib/tools/tool-names";

// Tool names are stored (agents' switched-off tools, usage records, clients' configs): they must never change.
describe("integrationToolName", () => {
  it.each([
    ["docs", "search", "docs_search"],
    ["docs_server", "get-page", "docs_server_get-page"],
    ["github", "repos.list", "github_repos_list"],
    ["my_mcp", "tool with spaces/and:colons", "my_mcp_tool_with_spaces_and_colons"],
    ["café", "naïve", "caf__na_ve"],
    ["", "emoji🙂tool", "_emoji__tool"],
    ["s", "x".repeat(62), `s_${"x".repeat(62)}`],
    ["s", "x".repeat(63), `s_${"x".repeat(53)}_1246ba3a`],
    [
      "everything_2",
      "a_very_long_tool_name_that_goes_on_and_on_well_past_the_limit_of_64",
      "everything_2_a_very_long_tool_name_that_goes_on_and_on__82f3927a",
    ],
    [
      "everything_2",
      "a_very_long_tool_name_that_goes_on_and_on_well_past_the_limit_of_65",
      "everything_2_a_very_long_tool_name_that_goes_on_and_on__ac3a86dc",
    ],
    ["a".repeat(24), "b".repeat(40), `${"a".repeat(24)}_${"b".repeat(30)}_8f24339b`],
  ])("names %j's tool %j as %j", (slug, tool, expected) => {
    const name = integrationToolName(slug, tool);
    expect(name).toBe(expected);
    expect(name).toMatch(TOOL_NAME_PATTERN);
    expect(name.length).toBeLessThanOrEqual(MAX_TOOL_NAME);
  });

  it("keeps long names that differ only past the limit apart", () => {
    const long = "t".repeat(80);
    expect(integrationToolName("s", `${long}1`)).not.toBe(integrationToolName("s", `${long}2`));
  });
});

describe("TOOL_NAME_PATTERN", () => {
  it.each([
    ["docs_search", true],
    ["a-b_C9", true],
    ["x".repeat(64), true],
    ["x".repeat(65), false],
    ["", false],
    ["has space", false],
    ["dot.name", false],
  ])("%j matches: %s", (name, matches) => {
    expect(TOOL_NAME_PATTERN.test(name)).toBe(matches);
  });
});

describe("couldBeIntegrationToolName", () => {
  it.each([
    ["docs", "docs_search", true],
    ["docs", "docs_", true],
    ["docs", "docs", false],
    ["docs", "docsearch", false],
    ["docs", "my_docs_search", false],
    ["docs_2", "docs_2_search", true],
  ])("slug %j could list %j: %s", (slug, name, expected) => {
    expect(couldBeIntegrationToolName(slug, name)).toBe(expected);
  });
});

describe("capabilityToolName", () => {
  it.each([
    ["crm", "find_lead", "mcp__crm__find_lead"],
    ["a", "b", "mcp__a__b"],
    ["ns_with_under", "act_2", "mcp__ns_with_under__act_2"],
  ])("names %j %j as %j", (namespace, action, expected) => {
    expect(capabilityToolName(namespace, action)).toBe(expected);
    expect(isCapabilityToolName(expected)).toBe(true);
  });

  it.each(["docs_search", "mcp_single", "search", "MCP__x__y"])("%j is not a capability's name", (name) => {
    expect(isCapabilityToolName(name)).toBe(false);
  });
});

describe("claimUniqueNames", () => {
  const listed = (name: string) => ({ name: integrationToolName("docs", name) });

  it("gives each name to the first item that claims it and hands the others to onTaken", () => {
    const skipped: string[] = [];
    const claimed = claimUniqueNames(["a.b", "a_b", "c", "c"], listed, {
      onTaken: (item, entry) => skipped.push(`${item}->${entry.name}`),
    });
    expect(claimed.map(({ item, listed }) => [item, listed.name])).toEqual([
      ["a.b", "docs_a_b"],
      ["c", "docs_c"],
    ]);
    expect(skipped).toEqual(["a_b->docs_a_b", "c->docs_c"]);
  });

  it("leaves out names taken beforehand", () => {
    const claimed = claimUniqueNames(["a", "b"], listed, { taken: (name) => name === "docs_a" });
    expect(claimed.map(({ listed }) => listed.name)).toEqual(["docs_b"]);
  });

  it("lists nothing for no items", () => {
    expect(claimUniqueNames([], listed)).toEqual([]);
  });
});
