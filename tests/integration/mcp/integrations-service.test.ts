import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpIntegrations } from "@/db/schema";
import { resolveUserContext, type UserContext } from "@/lib/auth/context";
import { registerUser } from "@/lib/auth/users";
import { AppError } from "@/lib/errors";
import { getMcpClient } from "@/lib/mcp/client/shared-client";
import {
  createIntegration,
  deleteIntegration,
  getIntegration,
  listIntegrations,
  runIntegrationTool,
  setIntegrationEnabled,
  testIntegration,
  updateIntegration,
} from "@/lib/mcp/integrations-service";
import { mcpUseCases } from "@/lib/mcp/use-cases";
import { addMember } from "@/lib/orgs/members";
import { type RunningFixture, startFixture } from "../../fixtures/mcp/start-fixture";
import { createTestDatabase } from "../test-db";

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let authServer: RunningFixture;
let ownerA: UserContext;
let memberA: UserContext;
let ownerB: UserContext;

beforeAll(async () => {
  handle = await createTestDatabase();
  authServer = await startFixture("auth-required", { args: ["--token", "tok-123"] });
  const a = await registerUser(handle.db, { name: "A", email: "a@example.com", password: "password a" });
  const m = await registerUser(handle.db, { name: "M", email: "m@example.com", password: "password m" });
  const b = await registerUser(handle.db, { name: "B", email: "b@example.com", password: "password b" });
  ownerA = await resolveUserContext(handle.db, { userId: a.user.id });
  ownerB = await resolveUserContext(handle.db, { userId: b.user.id });
  await addMember(handle.db, ownerA, { email: "m@example.com", role: "member" });
  memberA = await resolveUserContext(handle.db, { userId: m.user.id, preferredOrgId: ownerA.orgId });
});
afterAll(async () => {
  await getMcpClient().pool.closeAll();
  await authServer?.stop();
  await handle?.close();
});

const db = () => handle.db;

async function codeOf(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return (error as AppError).code;
}

describe("integrations", () => {
  it("adds the bundled Everything server from the catalog, tests it and runs its tools", async () => {
    const integration = await createIntegration(db(), ownerA, {
      source: "catalog",
      catalogKey: "everything",
    });
    expect(integration).toMatchObject({
      name: "Everything",
      slug: "everything",
      transport: "stdio",
      status: "unknown",
    });
    const test = await testIntegration(db(), ownerA, integration.id);
    expect(test.ok && test.capabilities.tools.length).toBeGreaterThan(5);
    const stored = await getIntegration(db(), memberA, integration.id);
    expect(stored.status).toBe("connected");
    expect(stored.counts?.tools).toBe(test.ok ? test.capabilities.tools.length : -1);
    const echo = await runIntegrationTool(db(), memberA, integration.id, "echo", {
      message: "from a member",
    });
    expect(echo).toMatchObject({ isError: false, content: [{ type: "text", text: "Echo: from a member" }] });
    const missing = await runIntegrationTool(db(), memberA, integration.id, "no-such-tool", {}).catch(
      (e: AppError) => e,
    );
    expect(missing).toBeInstanceOf(AppError);
    expect((missing as AppError).status).toBe(404);
    expect((missing as AppError).message).toBe('The tool "no-such-tool" of Everything was not found.');
  });

  it("stores credentials encrypted, never returns them, and uses them to connect", async () => {
    const integration = await createIntegration(db(), ownerA, {
      source: "custom",
      name: "Private API",
      transport: "streamable-http",
      url: authServer.url,
      authType: "bearer",
      token: "tok-123",
    });
    expect(JSON.stringify(integration)).not.toContain("tok-123");
    expect(integration.credentialKeys).toEqual(["token"]);
    const [row] = await db().select().from(mcpIntegrations).where(eq(mcpIntegrations.id, integration.id));
    expect(JSON.stringify(row)).not.toContain("tok-123");
    expect(row?.credentialsEncrypted.token).toMatch(/^v1\./);
    expect((await testIntegration(db(), ownerA, integration.id)).ok).toBe(true);

    // A blank token on edit keeps the stored one; a wrong one is reported as refused.
    await updateIntegration(db(), ownerA, integration.id, { name: "Private API v2", token: "" });
    expect((await testIntegration(db(), ownerA, integration.id)).ok).toBe(true);
    await updateIntegration(db(), ownerA, integration.id, { token: "wrong" });
    const refused = await testIntegration(db(), ownerA, integration.id);
    expect(refused).toMatchObject({
      ok: false,
      error: expect.stringMatching(/refused the credentials \(HTTP 401\)/),
    });
    const view = await getIntegration(db(), ownerA, integration.id);
    expect(view).toMatchObject({
      name: "Private API v2",
      status: "failing",
      lastError: expect.stringMatching(/401/),
    });
  });

  it("asks a catalog entry only for the credentials it needs", async () => {
    const error = await createIntegration(db(), ownerA, { source: "catalog", catalogKey: "github" }).catch(
      (e: AppError) => e,
    );
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).message).toMatch(/GitHub needs: Personal access token/);
  });

  it("refuses bad input with a message per field", async () => {
    const bad = await createIntegration(db(), ownerA, {
      source: "custom",
      name: "",
      transport: "streamable-http",
      url: "ftp://example.com",
    }).catch((e: AppError) => e);
    expect((bad as AppError).details?.fields).toMatchObject({
      name: expect.any(Array),
      url: expect.any(Array),
    });
    expect(
      await codeOf(
        createIntegration(db(), ownerA, {
          source: "custom",
          name: "x",
          transport: "sse",
          url: "https://x.test",
          headers: { "Bad Header": "v" },
          authType: "headers",
        }),
      ),
    ).toBe("bad_request:validation");
  });

  it("lets only a superadmin with MCP_ALLOW_STDIO add command-line servers", async () => {
    const input = { source: "custom", name: "Shell", transport: "stdio", command: "sh" } as const;
    expect(await codeOf(createIntegration(db(), ownerB, input))).toBe("forbidden:auth");
    expect(await codeOf(createIntegration(db(), { ...ownerA, isSuperadmin: true }, input))).toBe(
      "forbidden:auth",
    );
  });

  it("disables and deletes; a disabled integration cannot be discovered or executed", async () => {
    const integration = await createIntegration(db(), ownerA, {
      source: "catalog",
      catalogKey: "everything",
      name: "Spare",
    });
    await setIntegrationEnabled(db(), ownerA, integration.id, false);
    const { discover, execute } = mcpUseCases(db());
    expect(await codeOf(discover.execute(ownerA, { integrationId: integration.id }))).toBe(
      "bad_request:mcp_integration_disabled",
    );
    expect(
      await codeOf(
        execute.execute(ownerA, { integrationId: integration.id, toolName: "echo", parameters: {} }),
      ),
    ).toBe("bad_request:mcp_integration_disabled");
    expect((await getIntegration(db(), ownerA, integration.id)).status).toBe("disabled");
    await deleteIntegration(db(), ownerA, integration.id);
    expect((await listIntegrations(db(), ownerA)).map((i) => i.id)).not.toContain(integration.id);
  });

  it("keeps members from changing integrations", async () => {
    const [first] = await listIntegrations(db(), memberA);
    if (!first) throw new Error("expected an integration");
    expect(await codeOf(createIntegration(db(), memberA, { source: "catalog", catalogKey: "memory" }))).toBe(
      "forbidden:auth",
    );
    expect(await codeOf(updateIntegration(db(), memberA, first.id, { name: "x" }))).toBe("forbidden:auth");
    expect(await codeOf(setIntegrationEnabled(db(), memberA, first.id, false))).toBe("forbidden:auth");
    expect(await codeOf(deleteIntegration(db(), memberA, first.id))).toBe("forbidden:auth");
  });
});

describe("tenant isolation", () => {
  it("keeps another organization from discovering, executing, reading, editing or deleting an integration", async () => {
    const integration = await createIntegration(db(), ownerA, {
      source: "catalog",
      catalogKey: "everything",
      name: "Secret stuff",
    });
    const { discover, execute } = mcpUseCases(db());
    expect(await codeOf(discover.execute(ownerB, { integrationId: integration.id }))).toBe(
      "forbidden:mcp_integration",
    );
    expect(
      await codeOf(
        execute.execute(ownerB, {
          integrationId: integration.id,
          toolName: "echo",
          parameters: { message: "x" },
        }),
      ),
    ).toBe("forbidden:mcp_integration");
    expect(await codeOf(getIntegration(db(), ownerB, integration.id))).toBe("not_found:resource");
    expect(await codeOf(testIntegration(db(), ownerB, integration.id))).toBe("not_found:resource");
    expect(await codeOf(runIntegrationTool(db(), ownerB, integration.id, "echo", {}))).toBe(
      "not_found:resource",
    );
    expect(await codeOf(updateIntegration(db(), ownerB, integration.id, { name: "mine" }))).toBe(
      "not_found:resource",
    );
    expect(await codeOf(setIntegrationEnabled(db(), ownerB, integration.id, false))).toBe(
      "not_found:resource",
    );
    expect(await codeOf(deleteIntegration(db(), ownerB, integration.id))).toBe("not_found:resource");
    expect((await listIntegrations(db(), ownerB)).length).toBe(0);
    expect((await getIntegration(db(), ownerA, integration.id)).name).toBe("Secret stuff");
  });
});
