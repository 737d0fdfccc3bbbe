import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpIntegrations, mcpOAuthCredentials, mcpOAuthFlows } from "@/db/schema";
import { resolveUserContext, type UserContext } from "@/lib/auth/context";
import { registerUser } from "@/lib/auth/users";
import { AppError, ValidationError } from "@/lib/errors";
import { getMcpClient } from "@/lib/mcp/client/shared-client";
import { createIntegration } from "@/lib/mcp/integrations/create-integration";
import { deleteIntegration } from "@/lib/mcp/integrations/delete-integration";
import { getIntegration } from "@/lib/mcp/integrations/get-integration";
import { listIntegrations } from "@/lib/mcp/integrations/list-integrations";
import { setIntegrationEnabled } from "@/lib/mcp/integrations/set-integration-enabled";
import { testIntegration } from "@/lib/mcp/integrations/test-connection";
import { updateIntegration } from "@/lib/mcp/integrations/update-integration";
import { mcpUseCases } from "@/lib/mcp/use-cases";
import { runIntegrationTool } from "@/lib/tools/integration-tool-run";
import { type RunningFixture, startFixture } from "../../fixtures/mcp/start-fixture";
import { joinByInvitation } from "../org-users";
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
  await joinByInvitation(handle.db, ownerA, { email: "m@example.com", role: "member" });
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
      presetKey: "everything",
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
    const error = await createIntegration(db(), ownerA, { source: "catalog", presetKey: "github" }).catch(
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
      presetKey: "everything",
      name: "Spare",
    });
    await setIntegrationEnabled(db(), ownerA, integration.id, false);
    const { discover, executeTool } = mcpUseCases(db());
    expect(await codeOf(discover(ownerA, { integrationId: integration.id }))).toBe(
      "bad_request:mcp_integration_disabled",
    );
    expect(
      await codeOf(executeTool(ownerA, { integrationId: integration.id, toolName: "echo", parameters: {} })),
    ).toBe("bad_request:mcp_integration_disabled");
    expect((await getIntegration(db(), ownerA, integration.id)).status).toBe("disabled");
    await deleteIntegration(db(), ownerA, integration.id);
    expect((await listIntegrations(db(), ownerA)).map((i) => i.id)).not.toContain(integration.id);
  });

  it("keeps members from changing integrations", async () => {
    const [first] = await listIntegrations(db(), memberA);
    if (!first) throw new Error("expected an integration");
    expect(await codeOf(createIntegration(db(), memberA, { source: "catalog", presetKey: "memory" }))).toBe(
      "forbidden:auth",
    );
    expect(await codeOf(updateIntegration(db(), memberA, first.id, { name: "x" }))).toBe("forbidden:auth");
    expect(await codeOf(setIntegrationEnabled(db(), memberA, first.id, false))).toBe("forbidden:auth");
    expect(await codeOf(deleteIntegration(db(), memberA, first.id))).toBe("forbidden:auth");
  });
});

// Issue 14, item 5: an admin who points an integration at their own server must not receive its saved secrets.
describe("moving an integration to another origin", () => {
  let collector: ReturnType<typeof createServer>;
  let collectorUrl: string;
  const received: string[] = [];

  beforeAll(async () => {
    collector = createServer((req, res) => {
      received.push(JSON.stringify(req.headers));
      res.writeHead(401).end();
    });
    await new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve));
    // "localhost" rather than 127.0.0.1: another origin even on the same machine.
    collectorUrl = `http://localhost:${(collector.address() as AddressInfo).port}/mcp`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => collector.close(() => resolve()));
  });

  async function validationOf(promise: Promise<unknown>) {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ValidationError);
    return error as ValidationError;
  }

  const rowOf = async (id: string) =>
    (await db().select().from(mcpIntegrations).where(eq(mcpIntegrations.id, id)))[0];

  it("asks for the bearer token again instead of sending the saved one to the new server", async () => {
    const integration = await createIntegration(db(), ownerA, {
      source: "custom",
      name: "Moving bearer",
      transport: "streamable-http",
      url: authServer.url,
      authType: "bearer",
      token: "tok-123",
    });
    const before = await rowOf(integration.id);

    for (const token of [undefined, ""]) {
      const refused = await validationOf(
        updateIntegration(db(), ownerA, integration.id, { url: collectorUrl, token }),
      );
      expect(refused.message).toMatch(/Enter the bearer token again/);
      expect(refused.message).toContain(new URL(collectorUrl).origin);
      expect(refused.details?.fields?.token?.[0]).toMatch(/Enter the token again/);
    }
    // Nothing changed, so nothing reaches the collector.
    const unchanged = await rowOf(integration.id);
    expect(unchanged?.url).toBe(authServer.url);
    expect(unchanged?.credentialsEncrypted).toEqual(before?.credentialsEncrypted);
    await testIntegration(db(), ownerA, integration.id);
    expect(received.join("\n")).not.toContain("tok-123");

    // A path on the same origin keeps the token.
    const samePath = new URL(authServer.url);
    samePath.pathname = "/other";
    await updateIntegration(db(), ownerA, integration.id, { url: samePath.href });
    expect((await rowOf(integration.id))?.credentialsEncrypted).toEqual(before?.credentialsEncrypted);

    // With a new token in the same edit, the move goes through and only the new token is sent.
    await updateIntegration(db(), ownerA, integration.id, {
      url: collectorUrl,
      token: "token-for-new-server",
    });
    await testIntegration(db(), ownerA, integration.id);
    expect(received.join("\n")).toContain("Bearer token-for-new-server");
    expect(received.join("\n")).not.toContain("tok-123");
  });

  it("asks for every saved header value again, or for the header to be removed", async () => {
    const integration = await createIntegration(db(), ownerA, {
      source: "custom",
      name: "Moving headers",
      transport: "streamable-http",
      url: authServer.url,
      authType: "headers",
      headers: { "X-Api-Key": "header-secret-1", "X-Tenant": "header-secret-2" },
    });
    // An edit that leaves the headers out keeps them (the update schema used to default them to none).
    await updateIntegration(db(), ownerA, integration.id, { name: "Moving headers 2" });
    expect(Object.keys((await rowOf(integration.id))?.credentialsEncrypted ?? {}).sort()).toEqual([
      "X-Api-Key",
      "X-Tenant",
    ]);

    for (const headers of [
      undefined,
      { "X-Api-Key": "", "X-Tenant": "" },
      { "X-Api-Key": "new", "X-Tenant": "" },
    ]) {
      const refused = await validationOf(
        updateIntegration(db(), ownerA, integration.id, { url: collectorUrl, headers }),
      );
      expect(refused.details?.fields?.headers?.[0]).toMatch(/X-Tenant/);
    }
    expect((await rowOf(integration.id))?.url).toBe(authServer.url);

    await updateIntegration(db(), ownerA, integration.id, {
      url: collectorUrl,
      headers: { "X-Api-Key": "new-header-value" },
    });
    expect(Object.keys((await rowOf(integration.id))?.credentialsEncrypted ?? {})).toEqual(["X-Api-Key"]);
    await testIntegration(db(), ownerA, integration.id);
    const sent = received.join("\n");
    expect(sent).toContain("new-header-value");
    expect(sent).not.toContain("header-secret-1");
    expect(sent).not.toContain("header-secret-2");
  });

  it("asks for an OAuth client secret again and drops the tokens and pending consents of the old server", async () => {
    const integration = await createIntegration(db(), ownerA, {
      source: "custom",
      name: "Moving OAuth",
      transport: "streamable-http",
      url: authServer.url,
      authType: "oauth",
      oauthClientId: "client-1",
      oauthClientSecret: "client-secret-1",
    });
    const refused = await validationOf(
      updateIntegration(db(), ownerA, integration.id, { url: collectorUrl }),
    );
    expect(refused.details?.fields?.oauthClientSecret?.[0]).toMatch(/client secret again/);

    await db().insert(mcpOAuthCredentials).values({
      organizationId: ownerA.orgId,
      integrationId: integration.id,
      accessTokenEncrypted: "v1.stored-access-token",
    });
    await db().insert(mcpOAuthFlows).values({
      state: "pending-state-of-the-old-server",
      organizationId: ownerA.orgId,
      integrationId: integration.id,
      userId: ownerA.userId,
      personal: false,
      codeVerifierEncrypted: "v1.verifier",
      redirectUrl: "http://localhost:3000/api/oauth/callback",
    });
    await updateIntegration(db(), ownerA, integration.id, {
      url: collectorUrl,
      oauthClientSecret: "client-secret-2",
    });
    const tokens = await db()
      .select()
      .from(mcpOAuthCredentials)
      .where(eq(mcpOAuthCredentials.integrationId, integration.id));
    expect(tokens).toEqual([]);
    const flows = await db()
      .select()
      .from(mcpOAuthFlows)
      .where(eq(mcpOAuthFlows.integrationId, integration.id));
    expect(flows).toEqual([]);
    expect(Object.keys((await rowOf(integration.id))?.credentialsEncrypted ?? {})).toEqual(["clientSecret"]);
  });
});

describe("tenant isolation", () => {
  it("keeps another organization from discovering, executing, reading, editing or deleting an integration", async () => {
    const integration = await createIntegration(db(), ownerA, {
      source: "catalog",
      presetKey: "everything",
      name: "Secret stuff",
    });
    const { discover, executeTool } = mcpUseCases(db());
    expect(await codeOf(discover(ownerB, { integrationId: integration.id }))).toBe(
      "forbidden:mcp_integration",
    );
    expect(
      await codeOf(
        executeTool(ownerB, {
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
