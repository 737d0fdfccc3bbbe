import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents } from "@/db/schema";
import { authenticateApiKey, createApiKey, revokeApiKey } from "@/lib/api-keys/api-keys";
import type { UserContext } from "@/lib/auth/context";
import { registerUser } from "@/lib/auth/users";
import { createCapability, deleteCapability } from "@/lib/capabilities/store";
import { createAgent, ensureDefaultAgent, updateAgent } from "@/lib/chat/agents";
import { createConversation } from "@/lib/chat/conversations";
import { prepareConversation } from "@/lib/chat/prepare-conversation";
import { createKnowledgeNode, deleteKnowledgeNode, updateKnowledgeNode } from "@/lib/knowledge/nodes";
import { getMcpClient } from "@/lib/mcp/client/shared-client";
import { createIntegration } from "@/lib/mcp/integrations/create-integration";
import { setIntegrationEnabled } from "@/lib/mcp/integrations/set-integration-enabled";
import { testIntegration } from "@/lib/mcp/integrations/test-connection";
import { updateIntegration } from "@/lib/mcp/integrations/update-integration";
import { changeMemberRole, removeMember } from "@/lib/orgs/members";
import { setRecordToolPayloads } from "@/lib/orgs/organizations";
import { invokeTool } from "@/lib/tools/catalog";
import { connectGateway, useDatabase } from "./gateway-client";
import { joinByInvitation, registerOwners } from "./org-users";
import { createTestDatabase } from "./test-db";
import { usageRecordsOf } from "./usage-records";

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let a: UserContext;
let b: UserContext;
let everythingId: string;

beforeAll(async () => {
  handle = await createTestDatabase();
  useDatabase(handle);
  [a, b] = (await registerOwners(handle.db, "Una", "Vic")) as [UserContext, UserContext];
  everythingId = (await createIntegration(handle.db, a, { source: "catalog", presetKey: "everything" })).id;
  await testIntegration(handle.db, a, everythingId);
}, 60_000);
afterAll(async () => {
  await getMcpClient().pool.closeAll();
  useDatabase(undefined);
  await handle?.close();
});

const usageOf = (orgId: string) => usageRecordsOf(handle.db, orgId);
const auditOf = (orgId: string) =>
  handle.db.select().from(auditEvents).where(eq(auditEvents.organizationId, orgId));

describe("usage records", () => {
  it("records each call once, from every surface, with who, where, outcome and latency", async () => {
    const { key } = await createApiKey(handle.db, a, { name: "usage" });
    const keyCtx = await authenticateApiKey(handle.db, `Bearer ${key}`);
    await invokeTool(handle.db, keyCtx, "everything_echo", { message: "rest" }, { surface: "rest" });
    await invokeTool(
      handle.db,
      keyCtx,
      "node_knowledge_retriever",
      { node_names: ["nothing"] },
      { surface: "rest" },
    );
    await invokeTool(handle.db, keyCtx, "nope", {}, { surface: "rest" }).catch(() => undefined);

    const client = await connectGateway(key);
    await client.callTool({ name: "everything_get-sum", arguments: { a: 1, b: 2 } });
    await client.close();

    await createCapability(handle.db, a, {
      namespace: "usage",
      action: "nested",
      code: "return await tools.call('everything_echo', { message: 'inner' });",
    });
    await invokeTool(handle.db, a, "mcp__usage__nested", {}, { surface: "rest" });

    const conversation = await createConversation(
      handle.db,
      a,
      (await ensureDefaultAgent(handle.db, a.orgId)).id,
    );
    const { active } = await prepareConversation(handle.db, a, conversation);
    const echo = active.tools.everything_echo;
    await echo?.execute?.({ message: "chat" }, { toolCallId: "t1", messages: [] });

    const rows = await usageOf(a.orgId);
    const find = (surface: string, tool: string) =>
      rows.filter((r) => r.surface === surface && r.tool === tool);
    expect(find("rest", "everything_echo")).toHaveLength(1);
    expect(find("rest", "everything_echo")[0]).toMatchObject({
      apiKeyId: keyCtx.apiKeyId,
      userId: null,
      source: "integration",
      integrationId: everythingId,
      outcome: "ok",
    });
    expect(find("rest", "node_knowledge_retriever")[0]).toMatchObject({ source: "builtin" });
    expect(find("rest", "nope")[0]).toMatchObject({
      outcome: "failed",
      errorCode: "bad_request:unknown_tool",
      source: null,
    });
    expect(find("gateway", "everything_get-sum")).toHaveLength(1);
    expect(find("rest", "mcp__usage__nested")[0]).toMatchObject({
      source: "capability",
      userId: a.userId,
      outcome: "ok",
    });
    expect(find("capability", "everything_echo")).toHaveLength(1);
    expect(find("chat", "everything_echo")[0]).toMatchObject({
      userId: a.userId,
      source: "integration",
      outcome: "ok",
    });
    for (const row of rows) expect(row.latencyMs).toBeGreaterThanOrEqual(0);
    // Payloads are not kept unless the organization turns that on.
    expect(rows.every((row) => row.arguments === null && row.result === null)).toBe(true);
    expect(await usageOf(b.orgId)).toEqual([]);
  });

  it("keeps arguments and results, secrets redacted, once the organization turns that on", async () => {
    await setRecordToolPayloads(handle.db, a, true);
    await createCapability(handle.db, a, { namespace: "usage", action: "mirror", code: "return args;" });
    await invokeTool(
      handle.db,
      a,
      "mcp__usage__mirror",
      { text: "hello", api_key: "sk-live-123" },
      { surface: "rest" },
    );
    const [row] = (await usageOf(a.orgId)).filter((r) => r.tool === "mcp__usage__mirror");
    expect(row?.arguments).toEqual({ text: "hello", api_key: "[redacted]" });
    expect(JSON.stringify(row?.result)).toContain('"text":"hello"');
    expect(JSON.stringify(row)).not.toContain("sk-live-123");
    await setRecordToolPayloads(handle.db, a, false);
  });
});

describe("audit log", () => {
  it("writes an entry for each kind of change, with what changed, and never a secret", async () => {
    const custom = await createIntegration(handle.db, a, {
      source: "custom",
      name: "Secret server",
      transport: "streamable-http",
      url: "https://mcp.example.com/mcp",
      authType: "bearer",
      token: "tok-very-secret",
    });
    await updateIntegration(handle.db, a, custom.id, { name: "Renamed server", token: "tok-new-secret" });
    await setIntegrationEnabled(handle.db, a, custom.id, false);
    const { key, apiKey } = await createApiKey(handle.db, a, { name: "audited" });
    await revokeApiKey(handle.db, a, apiKey.id);
    const agent = await createAgent(handle.db, a, { name: "Auditor", builtinTools: [] });
    await updateAgent(handle.db, a, agent.id, {
      name: "Auditor",
      instructions: "Check things.",
      builtinTools: [],
    });
    const capability = await createCapability(handle.db, a, {
      namespace: "audit",
      action: "me",
      code: "return 1;",
    });
    await deleteCapability(handle.db, a, capability.id);
    await registerUser(handle.db, { name: "Wes", email: "wes@example.com", password: "password wes" });
    const member = await joinByInvitation(handle.db, a, { email: "wes@example.com", role: "member" });
    await changeMemberRole(handle.db, a, { userId: member.userId, role: "admin" });
    await removeMember(handle.db, a, { userId: member.userId });

    const events = await auditOf(a.orgId);
    const actions = events.map((e) => e.action);
    for (const action of [
      "integration.create",
      "integration.update",
      "integration.disable",
      "api_key.create",
      "api_key.revoke",
      "agent.create",
      "agent.update",
      "capability.create",
      "capability.delete",
      "invitation.create",
      "invitation.accept",
      "member.role",
      "member.remove",
    ])
      expect(actions).toContain(action);
    const update = events.find((e) => e.action === "integration.update");
    expect(update).toMatchObject({
      actorUserId: a.userId,
      targetName: "Renamed server",
      before: { name: "Secret server" },
      after: { name: "Renamed server", credentials: "changed" },
    });
    expect(
      events.find((e) => e.action === "integration.create" && e.targetName === "Secret server")?.after,
    ).toMatchObject({
      "credentials.token": "changed",
    });
    expect(events.find((e) => e.action === "agent.update")).toMatchObject({
      before: { instructions: "" },
      after: { instructions: "Check things." },
    });
    expect(events.find((e) => e.action === "member.role")).toMatchObject({
      before: { role: "member" },
      after: { role: "admin" },
    });
    const node = await createKnowledgeNode(handle.db, a, { name: "router-1", content: "Edge router" });
    await updateKnowledgeNode(handle.db, a, node.id, { name: "router-1", content: "Core router" });
    await deleteKnowledgeNode(handle.db, a, node.id);
    const withKnowledge = (await auditOf(a.orgId)).map((e) => e.action);
    for (const action of ["knowledge.create", "knowledge.update", "knowledge.delete", "settings.update"])
      expect(withKnowledge).toContain(action);
    const everything = JSON.stringify(events);
    for (const secret of ["tok-very-secret", "tok-new-secret", key]) expect(everything).not.toContain(secret);
    expect((await auditOf(b.orgId)).map((e) => e.action)).toEqual([]);
  });
});
