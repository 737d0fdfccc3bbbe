import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { UserContext } from "@/lib/auth/context";
import { createCapability } from "@/lib/capabilities/store";
import { invokeTool } from "@/lib/tools/catalog";
import { registerOwners } from "./org-users";
import { createTestDatabase } from "./test-db";

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let a: UserContext;

beforeAll(async () => {
  handle = await createTestDatabase();
  [a] = (await registerOwners(handle.db, "Cleo")) as [UserContext];
}, 60_000);
afterAll(() => handle?.close());

describe("a capability's errors say what went wrong", () => {
  it("names the tool its code called that does not exist", async () => {
    await createCapability(handle.db, a, {
      namespace: "errors",
      action: "unknown",
      code: "return await tools.call('no_such_tool', {});",
    });
    const result = await invokeTool(handle.db, a, "mcp__errors__unknown", {}, { surface: "rest" });
    expect(result.isError).toBe(true);
    expect(result.errorMessage).toContain("Unknown tool: no_such_tool");
  });

  it("names the line of its code a syntax error is on", async () => {
    await createCapability(handle.db, a, {
      namespace: "errors",
      action: "line",
      code: "const first = 1;\nreturn { first;",
    });
    const result = await invokeTool(handle.db, a, "mcp__errors__line", {}, { surface: "rest" });
    expect(result.errorMessage).toMatch(/^SyntaxError: .* \(line 2\)$/);
  });
});
