import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createApiKey } from "@/lib/api-keys/api-keys";
import type { UserContext } from "@/lib/auth/context";
import { createCapability } from "@/lib/capabilities/store";
import { connectGateway, useDatabase } from "./gateway-client";
import { registerOwners } from "./org-users";
import { createTestDatabase } from "./test-db";

// Pages of three, read once when the environment is first parsed (before anything in this file runs).
vi.hoisted(() => {
  process.env.MCP_LIST_PAGE_SIZE = "3";
});

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let a: UserContext;
let client: Client;

beforeAll(async () => {
  handle = await createTestDatabase();
  useDatabase(handle);
  [a] = (await registerOwners(handle.db, "Paige")) as [UserContext];
  for (const action of ["one", "two", "three"])
    await createCapability(handle.db, a, { namespace: "pages", action, code: "return 1;" });
  client = await connectGateway((await createApiKey(handle.db, a, { name: "pages" })).key);
});
afterAll(async () => {
  await client?.close();
  useDatabase(undefined);
  await handle?.close();
});

describe("paged listings", () => {
  it("lists tools page by page with opaque cursors, every tool once", async () => {
    const pages: string[][] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : {});
      pages.push(page.tools.map((tool) => tool.name));
      cursor = page.nextCursor;
    } while (cursor);
    expect(pages.map((page) => page.length)).toEqual([3, 3, 1]);
    const names = pages.flat();
    expect(new Set(names).size).toBe(7);
    expect(names).toEqual(
      expect.arrayContaining(["find_tools", "call_tool", "mcp__pages__one", "mcp__pages__three"]),
    );
  });

  it("refuses a cursor it did not give, saying what to send", async () => {
    await expect(client.listTools({ cursor: "not-a-cursor" })).rejects.toThrow(/Invalid cursor/);
    const promptsCursor = Buffer.from(JSON.stringify({ list: "prompts", offset: 3 })).toString("base64url");
    await expect(client.listTools({ cursor: promptsCursor })).rejects.toThrow(/previous tools page/);
  });
});
