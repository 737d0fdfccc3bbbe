import { describe, expect, it } from "vitest";
import { claimToolNames, holderOfToolName } from "@/lib/tools/tool-precedence";
import type { ToolDescriptor, ToolSource } from "@/lib/tools/types";

const tool = (name: string, source: ToolSource, description: string = source): ToolDescriptor => ({
  name,
  description,
  inputSchema: { type: "object" },
  source,
});

describe("claimToolNames", () => {
  it("gives a name to built-ins, then an editor's draft, then integrations' tools, then capabilities, in any order given", () => {
    const claims = [
      { descriptor: tool("x", "capability") },
      { descriptor: tool("x", "integration") },
      { descriptor: tool("y", "capability", "draft"), draft: true },
      { descriptor: tool("y", "integration") },
      { descriptor: tool("z", "capability") },
      { descriptor: tool("x", "builtin") },
    ];
    const taken: string[] = [];
    const listed = claimToolNames(claims, {
      onTaken: (claim, holder) =>
        taken.push(`${claim.descriptor.description} < ${holder.descriptor.description}`),
    });
    expect([...listed].map(([name, claim]) => `${name}:${claim.descriptor.description}`)).toEqual([
      "x:builtin",
      "y:draft",
      "z:capability",
    ]);
    expect(taken).toEqual(["integration < builtin", "integration < draft", "capability < builtin"]);
  });

  it("keeps the first of one rank, and lists no hidden name at all", () => {
    const listed = claimToolNames(
      [
        { descriptor: tool("a", "integration", "first") },
        { descriptor: tool("a", "integration", "second") },
        { descriptor: tool("b", "integration") },
        { descriptor: tool("b", "capability") },
      ],
      { hidden: new Set(["b"]) },
    );
    expect([...listed.values()].map((claim) => claim.descriptor.description)).toEqual(["first"]);
  });
});

describe("holderOfToolName", () => {
  const integration = { name: "Billing", slug: "mcp", discovered: { tools: [{ name: "_billing__refund" }] } };

  it("names what holds a capability's wanted name: another capability, a built-in or an integration's tool", () => {
    expect(
      holderOfToolName("mcp__billing__refund", { capabilities: [{ id: "c1" }], integrations: [] }),
    ).toEqual({
      kind: "capability",
    });
    expect(holderOfToolName("node_knowledge_retriever", { capabilities: [], integrations: [] })).toEqual({
      kind: "builtin",
    });
    expect(
      holderOfToolName("mcp__billing__refund", { capabilities: [], integrations: [integration] }),
    ).toEqual({
      kind: "integration",
      integrationName: "Billing",
    });
  });

  it("lets a capability keep its own name, and a name nobody holds", () => {
    expect(
      holderOfToolName("mcp__billing__refund", {
        capabilities: [{ id: "c1" }],
        integrations: [],
        exceptCapabilityId: "c1",
      }),
    ).toBeUndefined();
    expect(
      holderOfToolName("mcp__billing__other", { capabilities: [], integrations: [integration] }),
    ).toBeUndefined();
  });
});
