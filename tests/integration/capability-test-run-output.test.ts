import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { POST as testRunRoute } from "@/app/api/capabilities/test-run/route";
import type { UserContext } from "@/lib/auth/context";
import { createCapability } from "@/lib/capabilities/store";
import { invokeTool } from "@/lib/tools/catalog";
import { useDatabase } from "./gateway-client";
import { registerOwners } from "./org-users";
import { createTestDatabase } from "./test-db";

const session = {} as { ctx: UserContext };
vi.mock("@/lib/auth/request-context", () => ({ requireSignedInUser: async () => session.ctx }));

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  handle = await createTestDatabase();
  useDatabase(handle);
  [session.ctx] = (await registerOwners(handle.db, "Tess")) as [UserContext];
});
afterAll(async () => {
  useDatabase(undefined);
  await handle?.close();
});

const OUTPUT = {
  type: "object",
  properties: { temperature: { type: "number" } },
  required: ["temperature"],
};

/** The editor's draft as its test run sends it: every schema is the text of its field. */
const draft = (code: string, outputSchema: string) => ({
  id: null,
  namespace: "weather",
  action: "today",
  description: "",
  parametersSchema: "",
  outputSchema,
  code,
});

async function testRun(body: unknown) {
  const response = await testRunRoute(
    new Request("http://localhost:3000/api/capabilities/test-run", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
    { params: Promise.resolve({}) },
  );
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("the editor's test run of a draft with an output schema", () => {
  it("fails a result that breaks the draft's output schema, with the message a call of the saved capability gets", async () => {
    const code = 'console.log("measuring"); return { temperature: "warm" };';
    const { status, body } = await testRun({
      draft: draft(code, JSON.stringify(OUTPUT)),
      argsText: "{}",
    });
    expect(status).toBe(200);
    const saved = await createCapability(handle.db, session.ctx, {
      namespace: "weather",
      action: "saved",
      parametersSchema: { type: "object", properties: {} },
      outputSchema: OUTPUT,
      code,
    });
    expect(saved.id).toBeTruthy();
    const call = await invokeTool(handle.db, session.ctx, "mcp__weather__saved", {}, { surface: "rest" });
    expect(call.isError).toBe(true);
    expect(body).toMatchObject({
      run: {
        ok: false,
        error: {
          kind: "output_schema",
          message: call.errorMessage?.replace("mcp__weather__saved", "mcp__weather__today"),
        },
        // What the run itself showed stays visible.
        logs: ["measuring"],
      },
    });
    expect(call.errorMessage).toMatch(/does not match its output schema: /);
  });

  it("fails a draft with an output schema whose result is not structured", async () => {
    const { body } = await testRun({
      draft: draft('return "warm";', JSON.stringify(OUTPUT)),
      argsText: "{}",
    });
    expect(body).toMatchObject({
      run: {
        ok: false,
        error: {
          kind: "output_schema",
          message:
            "mcp__weather__today answered a result that does not match its output schema: it has no structured result.",
        },
      },
    });
  });

  it("passes a result that matches the schema, and any result of a draft without one", async () => {
    const good = await testRun({
      draft: draft("return { temperature: 21 };", JSON.stringify(OUTPUT)),
      argsText: "{}",
    });
    expect(good.body).toMatchObject({ run: { ok: true, value: { temperature: 21 } } });
    for (const outputSchema of ["", "  "]) {
      const none = await testRun({ draft: draft('return "warm";', outputSchema), argsText: "{}" });
      expect(none.body).toMatchObject({ run: { ok: true, value: "warm" } });
    }
  });

  it("says clearly what is wrong with the draft's output schema", async () => {
    const notJson = await testRun({ draft: draft("return {};", "{ nope"), argsText: "{}" });
    expect(notJson.status).toBe(400);
    expect(notJson.body).toMatchObject({ error: "The output schema is not valid JSON." });
    const notObject = await testRun({
      draft: draft("return {};", JSON.stringify({ type: "string" })),
      argsText: "{}",
    });
    expect(notObject.status).toBe(400);
    expect(notObject.body.error).toBe('The output schema must have "type": "object".');
  });
});
