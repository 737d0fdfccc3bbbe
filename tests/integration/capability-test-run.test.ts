import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveUserContext, type UserContext } from "@/lib/auth/context";
import { registerUser } from "@/lib/auth/users";
import { createCapability, getCapability } from "@/lib/capabilities/store";
import { createKnowledgeNode } from "@/lib/knowledge/nodes";
import { testRunCapability } from "@/lib/tools/capability-test-run";
import { invokeTool } from "@/lib/tools/catalog";
import { appErrorOf } from "./app-error";
import { joinByInvitation, registerOwners } from "./org-users";
import { createTestDatabase } from "./test-db";
import { usageRecordsOf } from "./usage-records";

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let a: UserContext;
let b: UserContext;
let member: UserContext;
let storedId: string;
const db = () => handle.db;

const STORED = {
  namespace: "calc",
  action: "add_one",
  description: "Adds one",
  parametersSchema: {
    type: "object",
    properties: { x: { type: "number", minimum: 0 } },
    required: ["x"],
    additionalProperties: false,
  },
  code: 'console.log("adding to", args.x);\nreturn { sum: args.x + 1 };',
};

beforeAll(async () => {
  handle = await createTestDatabase();
  [a, b] = (await registerOwners(handle.db, "Tess", "Uma")) as [UserContext, UserContext];
  const { user } = await registerUser(handle.db, {
    name: "Mo",
    email: "mo@example.com",
    password: "password mo",
  });
  await joinByInvitation(handle.db, a, { email: "mo@example.com", role: "member" });
  member = await resolveUserContext(handle.db, { userId: user.id, preferredOrgId: a.orgId });
  storedId = (await createCapability(handle.db, a, STORED)).id;
  await createKnowledgeNode(handle.db, a, { name: "router-1", content: "Edge router in Frankfurt." });
});
afterAll(async () => {
  await handle?.close();
});

const counters = async () => {
  const { usageCount, successCount, totalLatencyMs, lastUsedAt } = await getCapability(db(), a, storedId);
  return { usageCount, successCount, totalLatencyMs, lastUsedAt };
};

const testRunUsage = (tool: string) => usageRecordsOf(db(), a.orgId, "test-run", tool);

describe("the capability editor's test run", () => {
  it("refuses arguments the schema does not allow with the same message as a call of the saved capability", async () => {
    const before = await counters();
    for (const args of [{ x: "one" }, {}, { x: -1 }, { x: 1, y: 2 }]) {
      const testRun = await appErrorOf(
        testRunCapability(db(), a, { ...STORED, id: storedId, args: { ...args } }),
      );
      const saved = await appErrorOf(
        invokeTool(db(), a, "mcp__calc__add_one", { ...args }, { surface: "rest" }),
      );
      expect(testRun.code).toBe("bad_request:validation");
      expect(testRun.message).toMatch(/^Invalid params: /);
      expect(testRun.message).toBe(saved.message);
      expect(testRun.details?.fields).toEqual(saved.details?.fields);
    }
    const missing = await appErrorOf(testRunCapability(db(), a, { ...STORED, id: storedId, args: {} }));
    expect(missing.message).toBe("Invalid params: x is required");
    // A refused test run never ran the code, and never counted as a use of the stored capability.
    expect(await counters()).toEqual(before);
    const refused = await testRunUsage("mcp__calc__add_one");
    expect(refused.length).toBeGreaterThanOrEqual(4);
    for (const row of refused)
      expect(row).toMatchObject({
        outcome: "failed",
        errorCode: "bad_request:validation",
        source: "capability",
      });
  });

  it("runs valid arguments and answers the sandbox run, with no change to the usage counters", async () => {
    const before = await counters();
    const run = await testRunCapability(db(), a, { ...STORED, id: storedId, args: { x: 41 } });
    expect(run).toMatchObject({ ok: true, value: { sum: 42 }, logs: ["adding to 41"], toolCalls: 0 });
    expect(run.durationMs).toBeGreaterThanOrEqual(0);
    expect(await counters()).toEqual(before);
    expect(await testRunUsage("mcp__calc__add_one")).toContainEqual(
      expect.objectContaining({
        outcome: "ok",
        source: "capability",
        capabilityId: storedId,
        userId: a.userId,
        errorCode: null,
      }),
    );
    // A call of the saved capability does count: the counters above are the ones that move.
    await invokeTool(db(), a, "mcp__calc__add_one", { x: 1 }, { surface: "rest" });
    expect((await counters()).usageCount).toBe(before.usageCount + 1);
  });

  it("uses the editor's unsaved name, schema and code, not what is stored", async () => {
    const before = await counters();
    const draft = {
      ...STORED,
      id: storedId,
      action: "greet",
      parametersSchema: {
        type: "object",
        properties: { name: { type: "string", minLength: 2 } },
        required: ["name"],
      },
      code: 'console.log("hi", args.name);\nreturn "Hello " + args.name;',
    };
    // The stored schema would refuse this (no x); the draft's accepts it.
    const run = await testRunCapability(db(), a, { ...draft, args: { name: "Ada" } });
    expect(run).toMatchObject({ ok: true, value: "Hello Ada", logs: ["hi Ada"] });
    // And the draft's schema refuses what the stored one accepts.
    const refused = await appErrorOf(testRunCapability(db(), a, { ...draft, args: { x: 1 } }));
    expect(refused.message).toBe("Invalid params: name is required");
    const short = await appErrorOf(testRunCapability(db(), a, { ...draft, args: { name: "A" } }));
    expect(short.details?.fields).toEqual({ name: ["name must NOT have fewer than 2 characters"] });
    expect(await testRunUsage("mcp__calc__greet")).toHaveLength(3);
    expect(await counters()).toEqual(before);
    // What is stored did not change.
    expect(await getCapability(db(), a, storedId)).toMatchObject({
      action: "add_one",
      parametersSchema: STORED.parametersSchema,
    });
  });

  it("runs a capability never saved, whose tool calls go through the catalog", async () => {
    const run = await testRunCapability(db(), a, {
      namespace: "draft",
      action: "lookup",
      description: "",
      parametersSchema: { type: "object", properties: { node: { type: "string" } }, required: ["node"] },
      code: "const found = await tools.call('node_knowledge_retriever', { node_names: [args.node] });\nreturn found.results[0];",
      args: { node: "router-1" },
    });
    expect(run).toMatchObject({
      ok: true,
      toolCalls: 1,
      value: { node_name: "router-1", found: true, knowledge: "Edge router in Frankfurt." },
    });
    expect(await testRunUsage("mcp__draft__lookup")).toEqual([
      expect.objectContaining({ outcome: "ok", capabilityId: null }),
    ]);
    const failing = await testRunCapability(db(), a, {
      namespace: "draft",
      action: "fail",
      code: "throw new Error('nope');",
      args: {},
    });
    expect(failing).toMatchObject({ ok: false, error: { message: "Error: nope" } });
  });

  it("says clearly what is wrong with the draft itself", async () => {
    const badSchema = await appErrorOf(
      testRunCapability(db(), a, { ...STORED, parametersSchema: { type: "string" }, args: {} }),
    );
    expect(badSchema.status).toBe(400);
    expect(badSchema.message).toBe('The parameters schema must have "type": "object".');
    expect(badSchema.details?.fields).toHaveProperty("parametersSchema");
    const uncompilable = await appErrorOf(
      testRunCapability(db(), a, {
        ...STORED,
        parametersSchema: { type: "object", properties: { x: { type: "nonsense" } } },
        args: {},
      }),
    );
    expect(uncompilable.message).toMatch(/^The parameters schema is not valid: /);
    const noName = await appErrorOf(testRunCapability(db(), a, { ...STORED, namespace: "", args: {} }));
    expect(noName.message).toBe("Enter a namespace.");
    const notObject = await appErrorOf(testRunCapability(db(), a, { ...STORED, args: [1] }));
    expect(notObject.message).toBe("The arguments must be a JSON object.");
  });

  it("is for admins, and only of their own organization's capabilities", async () => {
    expect((await appErrorOf(testRunCapability(db(), member, { ...STORED, args: { x: 1 } }))).status).toBe(
      403,
    );
    expect(
      (await appErrorOf(testRunCapability(db(), b, { ...STORED, id: storedId, args: { x: 1 } }))).status,
    ).toBe(404);
  });
});
