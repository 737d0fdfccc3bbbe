import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { capabilities, mcpIntegrations } from "@/db/schema";
import type { UserContext } from "@/lib/auth/context";
import { createCapability } from "@/lib/capabilities/store";
import { getMcpClient } from "@/lib/mcp/client/shared-client";
import { createIntegration } from "@/lib/mcp/integrations/create-integration";
import { testIntegration } from "@/lib/mcp/integrations/test-connection";
import { invokeTool, listTools } from "@/lib/tools/catalog";
import { type RunningFixture, startFixture } from "../fixtures/mcp/start-fixture";
import { registerOwners } from "./org-users";
import { createTestDatabase } from "./test-db";

// The order the strict fixture lists `book`'s properties in; jsonb would return date, zeta, alpha, email, seats.
const BOOK_ORDER = ["zeta", "seats", "email", "date", "alpha"];

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let strict: RunningFixture;
let owner: UserContext;
let integrationId: string;

beforeAll(async () => {
  handle = await createTestDatabase();
  strict = await startFixture("strict");
  [owner] = (await registerOwners(handle.db, "Kay")) as [UserContext];
  integrationId = (
    await createIntegration(handle.db, owner, {
      source: "custom",
      name: "Strict",
      transport: "streamable-http",
      url: strict.url,
    })
  ).id;
  const discovery = await testIntegration(handle.db, owner, integrationId);
  if (!discovery.ok) throw new Error(`discovery failed: ${discovery.error}`);
});
afterAll(async () => {
  await getMcpClient().pool.closeAll();
  await strict?.stop();
  await handle?.close();
});

const propertyKeys = (schema: Record<string, unknown> | undefined) =>
  Object.keys((schema?.properties ?? {}) as Record<string, unknown>);

async function stats() {
  return (await (await fetch(`${strict.baseUrl}/stats`)).json()) as {
    toolCalls: number;
    toolCallsByName: Record<string, number>;
  };
}

describe("tool schemas keep their key order", () => {
  it("lists an integration tool's properties in the order its server sent them", async () => {
    const book = (await listTools(handle.db, owner)).find((tool) => tool.name === "strict_book");
    expect(propertyKeys(book?.inputSchema)).toEqual(BOOK_ORDER);
    expect(book?.inputSchema).toMatchObject({ required: ["zeta", "seats"], additionalProperties: false });
  });

  it("stores the discovery in that order", async () => {
    const [row] = await handle.db
      .select({
        discovered: mcpIntegrations.discovered,
        type: sql<string>`pg_typeof(${mcpIntegrations.discovered})::text`,
      })
      .from(mcpIntegrations)
      .where(eq(mcpIntegrations.id, integrationId));
    expect(row?.type).toBe("json");
    const book = row?.discovered?.tools.find((tool) => tool.name === "book");
    expect(propertyKeys(book?.inputSchema)).toEqual(BOOK_ORDER);
  });

  it("lists a capability's parameters in the order they were written", async () => {
    // With jsonb, "id" (the shortest key) would come first.
    const parametersSchema = {
      type: "object",
      properties: { zulu: { type: "string" }, alpha: { type: "integer" }, id: { type: "string" } },
    };
    const created = await createCapability(handle.db, owner, {
      namespace: "order",
      action: "check",
      parametersSchema,
      code: "return args;",
    });
    expect(propertyKeys(created.parametersSchema)).toEqual(["zulu", "alpha", "id"]);
    const [row] = await handle.db
      .select({ type: sql<string>`pg_typeof(${capabilities.parametersSchema})::text` })
      .from(capabilities)
      .where(eq(capabilities.id, created.id));
    expect(row?.type).toBe("json");
    const listed = (await listTools(handle.db, owner)).find((tool) => tool.name === "mcp__order__check");
    expect(propertyKeys(listed?.inputSchema)).toEqual(["zulu", "alpha", "id"]);
  });

  it("calls the strict tool with valid arguments, and the fixture counts the call", async () => {
    const before = await stats();
    const result = await invokeTool(
      handle.db,
      owner,
      "strict_book",
      { zeta: "Room 7", seats: 2 },
      { surface: "rest" },
    );
    expect(result).toMatchObject({
      isError: false,
      content: [{ type: "text", text: "booked Room 7 for 2" }],
    });
    const after = await stats();
    expect(after.toolCalls).toBe(before.toolCalls + 1);
    expect(after.toolCallsByName.book).toBe((before.toolCallsByName.book ?? 0) + 1);
  });
});
