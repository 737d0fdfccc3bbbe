import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { setRecordToolPayloadsAction, setUserDisabledAction } from "@/app/(app)/admin/actions";
import {
  allowToolAlwaysAction,
  renderPromptAction,
  setToolTogglesAction,
} from "@/app/(app)/chat/[id]/actions";
import {
  deleteConversationAction,
  newConversationAction,
  renameConversationAction,
} from "@/app/(app)/chat/actions";
import { deleteIntegrationAction, setEnabledAction } from "@/app/(app)/integrations/actions";
import { startOAuthAction } from "@/app/(app)/integrations/oauth-actions";
import { saveNodeAction } from "@/app/(app)/knowledge/actions";
import { createApiKeyAction, revokeApiKeyAction } from "@/app/(app)/settings/api-keys/actions";
import { POST as testRunRoute } from "@/app/api/capabilities/test-run/route";
import { POST as runToolRoute } from "@/app/api/integrations/[id]/run/route";
import { auditEvents, conversations, mcpIntegrations, organizations } from "@/db/schema";
import { createApiKey } from "@/lib/api-keys/api-keys";
import type { UserContext } from "@/lib/auth/context";
import { ensureDefaultAgent } from "@/lib/chat/agents";
import { createConversation } from "@/lib/chat/conversations";
import { ValidationError } from "@/lib/errors";
import { createIntegration } from "@/lib/mcp/integrations/create-integration";
import { useDatabase } from "./gateway-client";
import { registerOwners } from "./org-users";
import { createTestDatabase } from "./test-db";

// Actions read the signed-in user through next-auth and revalidate Next's cache, both of which need Next's
// runtime: stand in for them. Everything else the actions do is real.
const session = vi.hoisted(() => ({ ctx: null as unknown }));
vi.mock("@/lib/auth/request-context", () => ({ requireSignedInUser: async () => session.ctx }));
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let a: UserContext;
let integrationId: string;
let conversationId: string;

beforeAll(async () => {
  handle = await createTestDatabase();
  useDatabase(handle);
  [a] = (await registerOwners(handle.db, "Ada")) as [UserContext];
  session.ctx = a;
  integrationId = (
    await createIntegration(handle.db, a, {
      source: "custom",
      name: "Remote",
      transport: "streamable-http",
      url: "http://no-such-host.invalid/mcp",
    })
  ).id;
  const agent = await ensureDefaultAgent(handle.db, a.orgId);
  conversationId = (await createConversation(handle.db, a, agent.id)).id;
});
afterAll(async () => {
  useDatabase(undefined);
  await handle?.close();
});

/** Calls an action the way a forged request can: with arguments of any type, whatever its signature says. */
const forged = <T>(value: unknown) => value as T;

const integration = async () =>
  (await handle.db.select().from(mcpIntegrations).where(eq(mcpIntegrations.id, integrationId)))[0];
const audited = async () =>
  (await handle.db.select().from(auditEvents).where(eq(auditEvents.organizationId, a.orgId))).map(
    (e) => e.action,
  );

describe("server actions check their arguments before anything runs", () => {
  it('refuses setEnabledAction(id, "false"), which disabled the integration while the audit log said "enable"', async () => {
    const before = await audited();
    for (const enabled of ["false", "yes", 0, null, { valueOf: false }]) {
      const answer = await setEnabledAction(integrationId, forged<boolean>(enabled));
      expect(answer.error).toBe("This request is not valid: enabled: must be true or false.");
      expect(answer.fields).toEqual({ enabled: ["enabled: must be true or false"] });
    }
    expect((await integration())?.enabled).toBe(true);
    expect(await audited()).toEqual(before);
    // A real boolean still works, and is what the audit log says.
    expect(await setEnabledAction(integrationId, false)).toEqual({});
    expect((await integration())?.enabled).toBe(false);
    expect((await audited()).filter((action) => action.startsWith("integration.enable"))).toEqual([]);
  });

  it("refuses objects, arrays and non-UUIDs where ids are expected", async () => {
    for (const id of [{ id: integrationId }, [integrationId], `${integrationId}'--`, 42]) {
      const deleted = await deleteIntegrationAction(forged<string>(id));
      expect(deleted.error).toBe("This request is not valid: id: must be an id.");
    }
    expect(await integration()).toBeDefined();
    expect((await startOAuthAction(integrationId, forged<boolean>("true"))).error).toMatch(
      /personal: must be true or false/,
    );
    const key = await createApiKey(handle.db, a, { name: "kept" });
    expect((await revokeApiKeyAction(forged<string>({ toString: () => key.apiKey.id }))).error).toMatch(
      /id: must be an id/,
    );
    expect((await setUserDisabledAction(forged<string>([a.userId]), true)).error).toMatch(
      /userId: must be an id/,
    );
  });

  it("refuses a switch that is not a boolean without changing the setting", async () => {
    const answer = await setRecordToolPayloadsAction(forged<boolean>("true"));
    expect(answer.error).toMatch(/enabled: must be true or false/);
    const [org] = await handle.db.select().from(organizations).where(eq(organizations.id, a.orgId));
    expect(org?.recordToolPayloads).toBe(false);
  });

  it("refuses records and forms of the wrong shape", async () => {
    const run = await runToolRoute(
      new Request(`http://localhost:3000/api/integrations/${integrationId}/run`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ toolName: "echo", args: ["not", "a", "record"] }),
      }),
      { params: Promise.resolve({ id: integrationId }) },
    );
    expect(run.status).toBe(400);
    expect(await run.json()).toMatchObject({ error: expect.stringMatching(/args must be an object/) });
    const toggles = await setToolTogglesAction(
      conversationId,
      forged<{ disabledIntegrationIds: string[]; disabledTools: string[] }>({
        disabledIntegrationIds: "all",
      }),
    );
    expect(toggles.error).toMatch(/^This request is not valid: toggles\.disabledIntegrationIds/);
    const prompt = await renderPromptAction(
      conversationId,
      forged<{ integrationId: string; name: string; arguments: Record<string, string> }>({
        integrationId,
        name: "p",
        arguments: { topic: { nested: true } },
      }),
    );
    expect(prompt.error).toMatch(/request\.arguments\.topic: must be text/);
    // A form action called with something else than its form: refused, where it used to throw a TypeError.
    const created = await createApiKeyAction({}, forged<FormData>({ name: "k" }));
    expect(created.error).toBe("This request is not valid: form: must be the form's data.");
    const saved = await saveNodeAction(null, {}, forged<FormData>("name=x"));
    expect(saved.error).toMatch(/form: must be the form's data/);
    const draft = await testRunRoute(
      new Request("http://localhost:3000/api/capabilities/test-run", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ draft: { id: null, namespace: ["x"] }, argsText: "{}" }),
      }),
      { params: Promise.resolve({}) },
    );
    expect(draft.status).toBe(400);
    expect(await draft.json()).toMatchObject({ fields: { "draft.namespace": ["must be text"] } });
  });

  it("refuses NUL in text and form fields, which Postgres cannot store", async () => {
    const renamed = await renameConversationAction(conversationId, "title\u0000");
    expect(renamed.error).toMatch(/title: must not contain a NUL character/);
    const form = new FormData();
    form.set("name", "key\u0000");
    expect((await createApiKeyAction({}, form)).error).toMatch(/form: must not contain a NUL character/);
    expect((await allowToolAlwaysAction(conversationId, "x\u0000")).error).toMatch(/toolName/);
  });

  it("throws a validation error from the actions that answer by redirecting, and refuses a forged id", async () => {
    expect((await deleteConversationAction(forged<string>({ id: conversationId }))).error).toMatch(
      /id: must be an id/,
    );
    await expect(newConversationAction(forged<FormData>("agent"))).rejects.toBeInstanceOf(ValidationError);
    const [still] = await handle.db.select().from(conversations).where(eq(conversations.id, conversationId));
    expect(still).toBeDefined();
  });
});
