import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents } from "@/db/schema";
import { resolveUserContext, type UserContext } from "@/lib/auth/context";
import { registerUser } from "@/lib/auth/users";
import { createCapability, deleteCapability } from "@/lib/capabilities/store";
import {
  createAgent,
  deleteAgent,
  ensureDefaultAgent,
  getAgent,
  listAgents,
  updateAgent,
} from "@/lib/chat/agents";
import { createConversation, getConversation } from "@/lib/chat/conversations";
import { prepareConversation } from "@/lib/chat/prepare-conversation";
import { getMcpClient } from "@/lib/mcp/client/shared-client";
import { createIntegration } from "@/lib/mcp/integrations/create-integration";
import { deleteIntegration } from "@/lib/mcp/integrations/delete-integration";
import { appErrorOf } from "./app-error";
import { joinByInvitation, registerOwners } from "./org-users";
import { createTestDatabase } from "./test-db";

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let owner: UserContext;
let member: UserContext;
let other: UserContext;
let integrationId: string;
let otherIntegrationId: string;
let capabilityId: string;
let otherCapabilityId: string;

beforeAll(async () => {
  handle = await createTestDatabase();
  [owner, other] = (await registerOwners(handle.db, "Olga", "Oscar")) as [UserContext, UserContext];
  const m = await registerUser(handle.db, {
    name: "Mia",
    email: "mia@example.com",
    password: "password mia",
  });
  await joinByInvitation(handle.db, owner, { email: "mia@example.com", role: "member" });
  member = await resolveUserContext(handle.db, { userId: m.user.id, preferredOrgId: owner.orgId });
  integrationId = (await createIntegration(handle.db, owner, { source: "catalog", presetKey: "memory" })).id;
  otherIntegrationId = (await createIntegration(handle.db, other, { source: "catalog", presetKey: "memory" }))
    .id;
  capabilityId = (await createCapability(handle.db, owner, capability("reports", "weekly"))).id;
  otherCapabilityId = (await createCapability(handle.db, other, capability("reports", "weekly"))).id;
}, 60_000);
afterAll(async () => {
  await getMcpClient().pool.closeAll();
  await handle?.close();
});

const failure = appErrorOf;

function capability(namespace: string, action: string) {
  return { namespace, action, description: `${namespace} ${action}`, code: "return 'done';" };
}

const valid = {
  name: "Support",
  instructions: "Answer support questions.",
  model: "llama3.1",
  mcpIntegrationIds: [] as string[] | null,
  capabilityIds: [] as string[] | null,
  builtinTools: ["knowledge_search"],
  toolApproval: "always" as const,
};

describe("agents", () => {
  it("creates, lists, edits and deletes an agent; its conversations fall back to the default agent", async () => {
    const agent = await createAgent(handle.db, owner, { ...valid, mcpIntegrationIds: [integrationId] });
    expect(agent).toMatchObject({
      name: "Support",
      model: "llama3.1",
      mcpIntegrationIds: [integrationId],
      builtinTools: ["knowledge_search"],
      toolApproval: "always" as const,
      isDefault: false,
    });
    const listed = await listAgents(handle.db, member);
    expect(listed[0]?.isDefault).toBe(true);
    expect(listed.map((a) => a.id)).toContain(agent.id);

    const edited = await updateAgent(handle.db, owner, agent.id, { ...valid, name: "Help desk", model: "" });
    expect(edited).toMatchObject({ name: "Help desk", model: null, mcpIntegrationIds: [] });

    const conversation = await createConversation(handle.db, member, agent.id);
    const prepared = await prepareConversation(handle.db, member, conversation);
    expect(Object.keys(prepared.active.tools)).toEqual(["knowledge_search"]);
    expect(prepared.active.tools.knowledge_search?.needsApproval).toBe(true);

    await deleteAgent(handle.db, owner, agent.id);
    expect((await failure(getAgent(handle.db, owner, agent.id))).status).toBe(404);
    const orphan = await getConversation(handle.db, member, conversation.id);
    expect(orphan.agentId).toBeNull();
    const fallback = await prepareConversation(handle.db, member, orphan);
    expect(fallback.agent.isDefault).toBe(true);
  });

  it("forgets an integration that is deleted", async () => {
    const extra = await createIntegration(handle.db, owner, { source: "catalog", presetKey: "everything" });
    const agent = await createAgent(handle.db, owner, {
      ...valid,
      mcpIntegrationIds: [integrationId, extra.id],
    });
    await deleteIntegration(handle.db, owner, extra.id);
    expect((await getAgent(handle.db, owner, agent.id)).mcpIntegrationIds).toEqual([integrationId]);
    expect((await ensureDefaultAgent(handle.db, owner.orgId)).mcpIntegrationIds).toBeNull();
  });

  it("keeps the capabilities an agent chose; null (the default) means every capability", async () => {
    const agent = await createAgent(handle.db, owner, { ...valid, capabilityIds: undefined });
    expect(agent.capabilityIds).toBeNull();
    expect((await ensureDefaultAgent(handle.db, owner.orgId)).capabilityIds).toBeNull();
    const chosen = await updateAgent(handle.db, owner, agent.id, {
      ...valid,
      capabilityIds: [capabilityId, capabilityId],
    });
    expect(chosen.capabilityIds).toEqual([capabilityId]);
    expect((await getAgent(handle.db, member, agent.id)).capabilityIds).toEqual([capabilityId]);
    const [audit] = await handle.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.targetId, agent.id), eq(auditEvents.action, "agent.update")));
    expect(audit).toMatchObject({
      before: { capabilityIds: null },
      after: { capabilityIds: [capabilityId] },
    });
    const toolsOf = async () => {
      const conversation = await createConversation(handle.db, member, agent.id);
      return Object.keys((await prepareConversation(handle.db, member, conversation)).active.tools);
    };
    expect(await toolsOf()).toContain("mcp__reports__weekly");
    const none = await updateAgent(handle.db, owner, agent.id, { ...valid, capabilityIds: [] });
    expect(none.capabilityIds).toEqual([]);
    expect(await toolsOf()).not.toContain("mcp__reports__weekly");
  });

  it("forgets a capability that is deleted, and an agent left with none keeps none", async () => {
    const extra = await createCapability(handle.db, owner, capability("reports", "daily"));
    const both = await createAgent(handle.db, owner, { ...valid, capabilityIds: [capabilityId, extra.id] });
    const only = await createAgent(handle.db, owner, { ...valid, capabilityIds: [extra.id] });
    const all = await createAgent(handle.db, owner, { ...valid, capabilityIds: null });
    await deleteCapability(handle.db, owner, extra.id);
    expect((await getAgent(handle.db, owner, both.id)).capabilityIds).toEqual([capabilityId]);
    expect((await getAgent(handle.db, owner, only.id)).capabilityIds).toEqual([]);
    expect((await getAgent(handle.db, owner, all.id)).capabilityIds).toBeNull();
  });

  it("says what is wrong with each bad field", async () => {
    const fields = async (input: object) =>
      (await failure(createAgent(handle.db, owner, { ...valid, ...input }))).details?.fields;
    expect(await fields({ name: " " })).toMatchObject({ name: ["Enter a name."] });
    expect(await fields({ name: "x".repeat(81) })).toMatchObject({ name: [expect.stringMatching(/80/)] });
    expect(await fields({ instructions: "x".repeat(20_001) })).toMatchObject({
      instructions: [expect.stringMatching(/20,000/)],
    });
    expect(await fields({ model: "gpt 4" })).toMatchObject({ model: [expect.stringMatching(/no spaces/)] });
    expect(await fields({ builtinTools: ["rm_rf"] })).toMatchObject({
      "builtinTools.0": ["That is not a built-in tool."],
    });
    expect(await fields({ mcpIntegrationIds: ["not-a-uuid"] })).toMatchObject({
      mcpIntegrationIds: ["Choose integrations of this organization."],
    });
    expect(await fields({ capabilityIds: ["not-a-uuid"] })).toEqual({
      capabilityIds: ["Choose capabilities of this organization."],
    });
    expect(await fields({ capabilityIds: "all" })).toEqual({ capabilityIds: ["Choose the capabilities."] });
    // Both lists wrong: the form shows both messages at once.
    expect(
      await fields({ mcpIntegrationIds: [otherIntegrationId], capabilityIds: [otherCapabilityId] }),
    ).toEqual({
      mcpIntegrationIds: ["Choose integrations of this organization."],
      capabilityIds: ["Choose capabilities of this organization."],
    });
  });

  it("lets only owners and admins change agents, and keeps the default agent", async () => {
    const agent = await createAgent(handle.db, owner, valid);
    expect((await failure(createAgent(handle.db, member, valid))).status).toBe(403);
    expect((await failure(updateAgent(handle.db, member, agent.id, valid))).status).toBe(403);
    expect((await failure(deleteAgent(handle.db, member, agent.id))).status).toBe(403);
    const defaultAgent = await ensureDefaultAgent(handle.db, owner.orgId);
    const refused = await failure(deleteAgent(handle.db, owner, defaultAgent.id));
    expect(refused).toMatchObject({
      status: 400,
      message: expect.stringMatching(/default agent cannot be deleted/),
    });
    await expect(
      updateAgent(handle.db, owner, defaultAgent.id, { ...valid, name: "Assistant" }),
    ).resolves.toMatchObject({
      isDefault: true,
    });
  });

  it("keeps another organization out of an organization's agents", async () => {
    const agent = await createAgent(handle.db, owner, valid);
    expect((await failure(getAgent(handle.db, other, agent.id))).status).toBe(404);
    expect((await failure(updateAgent(handle.db, other, agent.id, valid))).status).toBe(404);
    expect((await failure(deleteAgent(handle.db, other, agent.id))).status).toBe(404);
    expect((await listAgents(handle.db, other)).map((a) => a.id)).not.toContain(agent.id);
    // Another organization's integration cannot be given to an agent, and the message does not reveal it exists.
    const foreign = await failure(
      createAgent(handle.db, owner, { ...valid, mcpIntegrationIds: [otherIntegrationId] }),
    );
    expect(foreign.details?.fields).toEqual({
      mcpIntegrationIds: ["Choose integrations of this organization."],
    });
    // Likewise another organization's capability.
    const foreignCapability = await failure(
      createAgent(handle.db, owner, { ...valid, capabilityIds: [capabilityId, otherCapabilityId] }),
    );
    expect(foreignCapability).toMatchObject({
      status: 400,
      message: "Choose capabilities of this organization.",
      details: { fields: { capabilityIds: ["Choose capabilities of this organization."] } },
    });
    // And a capability of this organization cannot be deleted from another.
    expect((await failure(deleteCapability(handle.db, other, capabilityId))).status).toBe(404);
  });
});
