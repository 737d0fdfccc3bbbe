import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { POST as testRunRoute } from "@/app/api/capabilities/test-run/route";
import type { UserContext } from "@/lib/auth/context";
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

const testRun = (code: string, signal?: AbortSignal) =>
  testRunRoute(
    new Request("http://localhost:3000/api/capabilities/test-run", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        draft: {
          id: null,
          namespace: "spin",
          action: "forever",
          description: "",
          parametersSchema: "",
          code,
        },
        argsText: "{}",
      }),
      signal,
    }),
    { params: Promise.resolve({}) },
  );

it("answers the run of the editor's code", async () => {
  const response = await testRun("return 6 * 7;");
  expect(await response.json()).toMatchObject({ run: { ok: true, value: 42 } });
});

it("stops the sandbox when the browser cancels, long before the run's time limit", async () => {
  const controller = new AbortController();
  // Busy for good: only a cancel ends it before the 30 s limit, past this test's own.
  const pending = testRun("while (true) {}", controller.signal);
  setTimeout(() => controller.abort(), 300);
  expect(await (await pending).json()).toMatchObject({
    run: {
      ok: false,
      error: { kind: "cancelled", message: "The request was cancelled before the capability finished." },
    },
  });
}, 15_000);

it("refuses arguments that are not JSON with a 400 naming them", async () => {
  const response = await testRunRoute(
    new Request("http://localhost:3000/api/capabilities/test-run", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        draft: { id: null, namespace: "a", action: "b", description: "", parametersSchema: "", code: "" },
        argsText: "{oops",
      }),
    }),
    { params: Promise.resolve({}) },
  );
  expect(response.status).toBe(400);
  expect(await response.json()).toMatchObject({
    error: "The arguments are not valid JSON.",
    fields: { args: ["The arguments are not valid JSON."] },
  });
});
