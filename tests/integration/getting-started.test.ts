import { afterAll, beforeAll, expect, it } from "vitest";
import { authenticateApiKey, createApiKey } from "@/lib/api-keys/api-keys";
import type { UserContext } from "@/lib/auth/context";
import { ensureDefaultAgent } from "@/lib/chat/agents";
import { createConversation, saveMessages } from "@/lib/chat/conversations";
import { getMcpClient } from "@/lib/mcp/client/shared-client";
import { createIntegration } from "@/lib/mcp/integrations/create-integration";
import { gettingStarted } from "@/lib/orgs/getting-started";
import { invokeTool } from "@/lib/tools/catalog";
import { registerOwners } from "./org-users";
import { createTestDatabase } from "./test-db";

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let a: UserContext;
let b: UserContext;
beforeAll(async () => {
  handle = await createTestDatabase();
  [a, b] = (await registerOwners(handle.db, "Fay", "Gus")) as [UserContext, UserContext];
});
afterAll(async () => {
  await getMcpClient().pool.closeAll();
  await handle?.close();
});

it("follows the organization's first steps as its own records show them, and no other organization's", async () => {
  const db = handle.db;
  const steps = async (ctx: UserContext) => Object.values(await gettingStarted(db, ctx.orgId));
  expect(await steps(a)).toEqual([false, false, false, false, false]);

  await createIntegration(db, a, { source: "catalog", presetKey: "everything" });
  await invokeTool(db, a, "node_knowledge_retriever", { node_names: ["x"] }, { surface: "runner" });
  const conversation = await createConversation(db, a, (await ensureDefaultAgent(db, a.orgId)).id);
  expect((await gettingStarted(db, a.orgId)).askedChat).toBe(false);
  await saveMessages(db, conversation, [{ id: "m1", role: "user", parts: [{ type: "text", text: "Hi" }] }]);
  const { key } = await createApiKey(db, a, { name: "first" });
  expect(await steps(a)).toEqual([true, true, true, true, false]);

  await authenticateApiKey(db, `Bearer ${key}`);
  expect(await steps(a)).toEqual([true, true, true, true, true]);
  expect(await steps(b)).toEqual([false, false, false, false, false]);
});
