import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { UserContext } from "@/lib/auth/context";
import { createCapability, getCapability, updateCapability } from "@/lib/capabilities/store";
import { createAgent } from "@/lib/chat/agents";
import { createConversation } from "@/lib/chat/conversations";
import { prepareConversation } from "@/lib/chat/prepare-conversation";
import { invokeTool, listTools } from "@/lib/tools/catalog";
import { appErrorOf } from "./app-error";
import { registerOwners } from "./org-users";
import { createTestDatabase } from "./test-db";

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let owner: UserContext;
let thermometerId = "";

const TEMPERATURE = {
  type: "object",
  properties: { celsius: { type: "number" } },
  required: ["celsius"],
};

beforeAll(async () => {
  handle = await createTestDatabase();
  [owner] = (await registerOwners(handle.db, "Theo")) as [UserContext];
  thermometerId = (
    await createCapability(handle.db, owner, {
      namespace: "weather",
      action: "read",
      parametersSchema: { type: "object", properties: { broken: { type: "boolean" } } },
      outputSchema: TEMPERATURE,
      annotations: { readOnlyHint: true, idempotentHint: true },
      code: "return args.broken ? { celsius: 'warm' } : { celsius: 21 };",
    })
  ).id;
  await createCapability(handle.db, owner, {
    namespace: "weather",
    action: "reset",
    annotations: { destructiveHint: true },
    code: "return 'reset';",
  });
}, 60_000);
afterAll(() => handle?.close());

describe("a capability's output schema and annotations", () => {
  it("are listed with the tool, as integration tools' are", async () => {
    const tools = await listTools(handle.db, owner);
    expect(tools.find((tool) => tool.name === "mcp__weather__read")).toMatchObject({
      outputSchema: TEMPERATURE,
      annotations: { readOnlyHint: true, idempotentHint: true },
    });
    const reset = tools.find((tool) => tool.name === "mcp__weather__reset");
    expect(reset?.annotations).toEqual({ destructiveHint: true });
    expect(reset && "outputSchema" in reset).toBe(false);
  });

  it("passes a result that matches the output schema, and reports one that breaks it as an error", async () => {
    const good = await invokeTool(handle.db, owner, "mcp__weather__read", {}, { surface: "rest" });
    expect(good.isError).toBe(false);
    expect(good.structuredContent).toEqual({ celsius: 21 });

    const bad = await invokeTool(
      handle.db,
      owner,
      "mcp__weather__read",
      { broken: true },
      { surface: "rest" },
    );
    expect(bad.isError).toBe(true);
    expect(bad.errorMessage).toBe(
      "mcp__weather__read answered a result that does not match its output schema: celsius must be number.",
    );
    expect(bad.structuredContent).toBeUndefined();
  });

  it("lets an agent that asks before risky tools run the read-only one at once and ask before the other", async () => {
    const agent = await createAgent(handle.db, owner, {
      name: "Weather",
      mcpIntegrationIds: [],
      builtinTools: [],
      toolApproval: "risky",
    });
    const conversation = await createConversation(handle.db, owner, agent.id);
    const { active } = await prepareConversation(handle.db, owner, conversation);
    expect(active.tools.mcp__weather__read?.needsApproval).toBeUndefined();
    expect(active.tools.mcp__weather__reset?.needsApproval).toBe(true);
  });

  it("refuses an output schema or annotations it cannot declare, with the field's message, and keeps the capability", async () => {
    const edit = (change: Record<string, unknown>) =>
      appErrorOf(
        updateCapability(handle.db, owner, thermometerId, {
          namespace: "weather",
          action: "read",
          code: "return { celsius: 1 };",
          ...change,
        }),
      );
    const notObject = await edit({ outputSchema: { type: "string" } });
    expect(notObject.status).toBe(400);
    expect(notObject.message).toContain('The output schema must have "type": "object".');
    const unknownHint = await edit({ annotations: { safeHint: true } });
    expect(unknownHint.status).toBe(400);
    expect(unknownHint.message).toContain("The annotations are readOnlyHint");
    expect(await getCapability(handle.db, owner, thermometerId)).toMatchObject({
      outputSchema: TEMPERATURE,
      annotations: { readOnlyHint: true, idempotentHint: true },
    });
  });
});
