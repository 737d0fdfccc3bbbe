import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { auditEvents, mcpIntegrations, mcpOAuthCredentials } from "@/db/schema";
import { createApiKey } from "@/lib/api-keys/api-keys";
import { type RequestContext, resolveUserContext, type UserContext } from "@/lib/auth/context";
import { registerUser } from "@/lib/auth/users";
import { ensureDefaultAgent } from "@/lib/chat/agents";
import { createConversation } from "@/lib/chat/conversations";
import { prepareConversation } from "@/lib/chat/prepare-conversation";
import { decryptSecret } from "@/lib/crypto/secret-box";
import { AppError } from "@/lib/errors";
import { getMcpClient } from "@/lib/mcp/client/shared-client";
import { createIntegration } from "@/lib/mcp/integrations/create-integration";
import { getIntegration } from "@/lib/mcp/integrations/get-integration";
import { testIntegration } from "@/lib/mcp/integrations/test-connection";
import { updateIntegration } from "@/lib/mcp/integrations/update-integration";
import { disconnectOAuth } from "@/lib/mcp/oauth/disconnect-oauth";
import { discoveryOf, oauthClientOf } from "@/lib/mcp/oauth/integration-client";
import { finishOAuthConnection, startOAuthConnection } from "@/lib/mcp/oauth/oauth-flow";
import { isRevocation, refreshGrant } from "@/lib/mcp/oauth/refresh-grant";
import { storedTokenVault } from "@/lib/mcp/oauth/stored-credentials";
import { OAuthTokenSource } from "@/lib/mcp/oauth/token-source";
import { findIntegrationForOrg } from "@/lib/mcp/repository";
import { removeMember } from "@/lib/orgs/members";
import { runIntegrationTool } from "@/lib/tools/integration-tool-run";
import { type OAuthMcpServer, startOAuthMcpServer } from "../fixtures/mcp/oauth-server";
import { appErrorOf } from "./app-error";
import { joinByInvitation, registerOwners } from "./org-users";
import { createTestDatabase } from "./test-db";

const REDIRECT = "http://localhost:3000/api/oauth/callback";

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let server: OAuthMcpServer;
let owner: UserContext;
let member: UserContext;
let outsider: UserContext;
const db = () => handle.db;

beforeAll(async () => {
  handle = await createTestDatabase();
  server = await startOAuthMcpServer();
  [owner, outsider] = (await registerOwners(handle.db, "Olga", "Otto")) as [UserContext, UserContext];
  const m = await registerUser(handle.db, {
    name: "Mel",
    email: "mel@example.com",
    password: "password mel",
  });
  await joinByInvitation(handle.db, owner, { email: "mel@example.com", role: "member" });
  member = await resolveUserContext(handle.db, { userId: m.user.id, preferredOrgId: owner.orgId });
}, 60_000);
afterAll(async () => {
  await getMcpClient().pool.closeAll();
  await server?.close();
  await handle?.close();
});
afterEach(() => {
  server.setIssuerAnswers({});
  server.setAccessTokenTtl(3600);
  server.setRefreshDelay(0);
  server.signInAs("alice");
});

async function oauthIntegration(name: string, credentials: "organization" | "user" = "organization") {
  const view = await createIntegration(db(), owner, {
    source: "custom",
    name,
    transport: "streamable-http",
    url: server.url,
    authType: "oauth",
    oauthCredentials: credentials,
  });
  return view.id;
}

/** The whole browser round trip, with the test provider consenting at once. */
async function connect(ctx: RequestContext, integrationId: string, personal = false) {
  const { authorizationUrl } = await startOAuthConnection(db(), ctx, integrationId, {
    personal,
    redirectUrl: REDIRECT,
  });
  const consent = await fetch(authorizationUrl, { redirect: "manual" });
  const back = new URL(consent.headers.get("location") ?? "");
  expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
  return finishOAuthConnection(db(), ctx, {
    state: back.searchParams.get("state") ?? "",
    code: back.searchParams.get("code") ?? undefined,
  });
}

/** What the tool runner shows: the tool's answer, its error result, or why the call was refused. */
async function whoami(ctx: RequestContext, integrationId: string) {
  try {
    const result = await runIntegrationTool(db(), ctx, integrationId, "whoami", {});
    const first = result.content[0];
    return result.isError ? `error: ${result.errorMessage}` : first?.type === "text" ? first.text : "";
  } catch (error) {
    if (error instanceof AppError) return `error: ${error.message}`;
    throw error;
  }
}

async function storedCredential(integrationId: string) {
  const [row] = await db()
    .select()
    .from(mcpOAuthCredentials)
    .where(eq(mcpOAuthCredentials.integrationId, integrationId));
  return row;
}

describe("connecting an OAuth integration for the organization", () => {
  it("discovers, registers, runs PKCE with the resource parameter, stores tokens encrypted and lists the tools", async () => {
    const id = await oauthIntegration("Files");
    const before = await getIntegration(db(), owner, id);
    expect(before.oauth).toMatchObject({
      credentials: "organization",
      connection: { status: "not_connected" },
    });
    expect(await whoami(owner, id)).toMatch(/error: Files is not connected yet/);

    const { authorizationUrl } = await startOAuthConnection(db(), owner, id, {
      personal: false,
      redirectUrl: REDIRECT,
    });
    const url = new URL(authorizationUrl);
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("resource")).toBe(server.url);
    expect(url.searchParams.get("redirect_uri")).toBe(REDIRECT);
    expect(url.searchParams.get("scope")).toBe("files:read files:write");
    const back = new URL((await fetch(url, { redirect: "manual" })).headers.get("location") ?? "");
    await finishOAuthConnection(db(), owner, {
      state: back.searchParams.get("state") ?? "",
      code: back.searchParams.get("code") ?? "",
    });

    const after = await getIntegration(db(), owner, id);
    expect(after.status).toBe("connected");
    expect(after.oauth?.connection.status).toBe("connected");
    expect(after.discovered?.tools.map((tool) => tool.name).sort()).toEqual(["echo", "whoami"]);
    expect(await whoami(owner, id)).toBe("You are alice.");
    // Members use the organization's connection too.
    expect(await whoami(member, id)).toBe("You are alice.");

    const row = await storedCredential(id);
    const accessToken = decryptSecret(row?.accessTokenEncrypted ?? "");
    expect(accessToken).toMatch(/^at-/);
    expect(row?.accessTokenEncrypted).not.toContain(accessToken);
    expect(JSON.stringify(after)).not.toContain(accessToken);
    const integrationRow = await findIntegrationForOrg(db(), owner.orgId, id);
    expect(Object.keys(integrationRow?.credentialsEncrypted ?? {})).toEqual(["registeredClient"]);
    expect(JSON.stringify(integrationRow?.credentialsEncrypted)).not.toContain("client_id");
  });

  it("uses a client an admin registered with the provider instead of registering one", async () => {
    const { clientId, clientSecret } = server.preRegister(REDIRECT);
    const view = await createIntegration(db(), owner, {
      source: "custom",
      name: "Console app",
      transport: "streamable-http",
      url: server.url,
      authType: "oauth",
      oauthClientId: clientId,
      oauthClientSecret: clientSecret,
    });
    expect(view.oauth).toMatchObject({ clientId, hasClientSecret: true });
    expect(JSON.stringify(view)).not.toContain(clientSecret);
    const registrations = server.stats.registrations;
    const { authorizationUrl } = await startOAuthConnection(db(), owner, view.id, {
      personal: false,
      redirectUrl: REDIRECT,
    });
    expect(new URL(authorizationUrl).searchParams.get("client_id")).toBe(clientId);
    await connect(owner, view.id);
    expect(await whoami(owner, view.id)).toBe("You are alice.");
    expect(server.stats.registrations).toBe(registrations);
    const missingId = await appErrorOf(
      createIntegration(db(), owner, {
        source: "custom",
        name: "Half a client",
        transport: "streamable-http",
        url: server.url,
        authType: "oauth",
        oauthClientSecret: "secret without an id",
      }),
    );
    expect(missingId.message).toBe("Enter the client id that goes with the client secret.");
  });

  it("refuses a member, an expired or reused state, another user's flow and a denied consent, each saying why", async () => {
    const id = await oauthIntegration("Files two");
    expect(
      (await appErrorOf(startOAuthConnection(db(), member, id, { personal: false, redirectUrl: REDIRECT })))
        .status,
    ).toBe(403);
    const personal = await appErrorOf(
      startOAuthConnection(db(), owner, id, { personal: true, redirectUrl: REDIRECT }),
    );
    expect(personal.message).toMatch(/connected once for the organization/);

    const { authorizationUrl } = await startOAuthConnection(db(), owner, id, {
      personal: false,
      redirectUrl: REDIRECT,
    });
    const back = new URL(
      (await fetch(authorizationUrl, { redirect: "manual" })).headers.get("location") ?? "",
    );
    const state = back.searchParams.get("state") ?? "";
    const code = back.searchParams.get("code") ?? "";
    const stolen = await appErrorOf(finishOAuthConnection(db(), member, { state, code }));
    expect(stolen.status).toBe(403);
    expect(stolen.message).toMatch(/started by someone else/);
    // Someone in another organization is refused the same way.
    const foreign = await appErrorOf(finishOAuthConnection(db(), outsider, { state, code }));
    expect(foreign.status).toBe(403);
    expect((await getIntegration(db(), owner, id)).oauth?.connection.status).toBe("not_connected");
    // Issue 14, item 15: a foreign attempt does not burn the owner's pending connection; the owner finishes it.
    await finishOAuthConnection(db(), owner, { state, code });
    expect((await getIntegration(db(), owner, id)).oauth?.connection.status).toBe("connected");
    expect(await whoami(owner, id)).toBe("You are alice.");
    // Once used, the flow is gone: a replay, by anyone, is refused.
    const reused = await appErrorOf(finishOAuthConnection(db(), owner, { state, code }));
    expect(reused.message).toMatch(/expired or was already used/);
    expect((await appErrorOf(finishOAuthConnection(db(), member, { state, code }))).message).toMatch(
      /expired or was already used/,
    );
    await disconnectOAuth(db(), owner, id, { personal: false });

    const again = await startOAuthConnection(db(), owner, id, { personal: false, redirectUrl: REDIRECT });
    const denied = await appErrorOf(
      finishOAuthConnection(db(), owner, {
        state: new URL(again.authorizationUrl).searchParams.get("state") ?? "",
        error: "access_denied",
        errorDescription: "The user said no",
      }),
    );
    expect(denied.status).toBe(400);
    expect(denied.message).toBe("Files two did not grant access: access_denied (The user said no).");
    expect((await getIntegration(db(), owner, id)).oauth?.connection.status).toBe("not_connected");
  });

  it("refuses metadata naming another issuer, and an authorization response from another issuer or without one", async () => {
    const id = await oauthIntegration("Files mixed up");
    const issuer = `${server.issuer}/`;
    const registrations = server.stats.registrations;
    server.setIssuerAnswers({ metadataIssuer: "https://attacker.example/" });
    const metadata = await appErrorOf(
      startOAuthConnection(db(), owner, id, { personal: false, redirectUrl: REDIRECT }),
    );
    expect(metadata.status).toBe(503);
    expect(metadata.message).toBe(
      `Could not start the authorization with Files mixed up: The authorization server metadata found for ${issuer} names another issuer; it was not used.`,
    );
    // Nothing was sent to the endpoints that metadata named.
    expect(server.stats.registrations).toBe(registrations);

    /** Starts a flow, lets the provider answer, and finishes it with what came back, `iss` included. */
    const answered = async () => {
      const { authorizationUrl } = await startOAuthConnection(db(), owner, id, {
        personal: false,
        redirectUrl: REDIRECT,
      });
      const back = new URL(
        (await fetch(authorizationUrl, { redirect: "manual" })).headers.get("location") ?? "",
      );
      return finishOAuthConnection(db(), owner, {
        state: back.searchParams.get("state") ?? "",
        code: back.searchParams.get("code") ?? undefined,
        iss: back.searchParams.get("iss") ?? undefined,
      });
    };
    const codeGrants = server.stats.codeGrants;
    server.setIssuerAnswers({ responseIss: "https://attacker.example/" });
    const wrong = await appErrorOf(answered());
    expect(wrong.message).toBe(
      `Could not finish the authorization with Files mixed up: The authorization response names an issuer (iss) other than ${issuer}; it was refused.`,
    );
    // A trailing slash less is another issuer too: no normalization.
    server.setIssuerAnswers({ responseIss: server.issuer, advertiseResponseIss: true });
    expect((await appErrorOf(answered())).message).toMatch(/names an issuer \(iss\) other than/);
    server.setIssuerAnswers({ advertiseResponseIss: true });
    expect((await appErrorOf(answered())).message).toBe(
      `Could not finish the authorization with Files mixed up: The authorization response did not name its issuer (iss), which ${issuer} says it always does; it was refused.`,
    );
    // No code was redeemed, and nothing was connected.
    expect(server.stats.codeGrants).toBe(codeGrants);
    expect((await getIntegration(db(), owner, id)).oauth?.connection.status).toBe("not_connected");

    server.setIssuerAnswers({ responseIss: issuer, advertiseResponseIss: true });
    await answered();
    expect(await whoami(owner, id)).toBe("You are alice.");
  });

  it("says clearly when the server does not offer OAuth", async () => {
    const plain = createServer((_req, res) => res.writeHead(404).end());
    await new Promise<void>((resolve) => plain.listen(0, "127.0.0.1", resolve));
    try {
      const view = await createIntegration(db(), owner, {
        source: "custom",
        name: "Not OAuth",
        transport: "streamable-http",
        url: `http://127.0.0.1:${(plain.address() as AddressInfo).port}/mcp`,
        authType: "oauth",
      });
      const failure = await appErrorOf(
        startOAuthConnection(db(), owner, view.id, { personal: false, redirectUrl: REDIRECT }),
      );
      expect(failure.status).toBe(503);
      expect(failure.message).toMatch(/^Could not start the authorization with Not OAuth: ./);
    } finally {
      plain.close();
    }
  });
});

describe("token lifetime", () => {
  it("refreshes a token shortly before it expires, and after the server rejects it", async () => {
    const id = await oauthIntegration("Lifetime");
    server.setAccessTokenTtl(30); // inside the one-minute margin: due for a refresh at once
    await connect(owner, id);
    server.setAccessTokenTtl(3600);
    const refreshes = server.stats.refreshGrants;
    expect(await whoami(owner, id)).toBe("You are alice.");
    expect(server.stats.refreshGrants).toBe(refreshes + 1);
    expect((await storedCredential(id))?.refreshedAt).toBeInstanceOf(Date);
    expect(await whoami(owner, id)).toBe("You are alice.");
    expect(server.stats.refreshGrants).toBe(refreshes + 1);
    server.invalidateAccessTokens();
    expect(await whoami(owner, id)).toBe("You are alice.");
    expect(server.stats.refreshGrants).toBe(refreshes + 2);
    expect(server.stats.refreshTokenReuse).toBe(0);
  });

  it("refreshes once for many concurrent calls, which all wait for it and succeed", async () => {
    const id = await oauthIntegration("Concurrent");
    await connect(owner, id);
    expect(await whoami(owner, id)).toBe("You are alice.");
    server.invalidateAccessTokens();
    server.setRefreshDelay(300);
    const refreshes = server.stats.refreshGrants;
    const results = await Promise.all(Array.from({ length: 12 }, () => whoami(owner, id)));
    expect(results).toEqual(Array(12).fill("You are alice."));
    expect(server.stats.refreshGrants).toBe(refreshes + 1);
    expect(server.stats.refreshTokenReuse).toBe(0);
  });

  it("marks a revoked connection for reconnecting, visibly, without breaking other integrations", async () => {
    const healthy = await oauthIntegration("Healthy");
    await connect(owner, healthy);
    server.setAccessTokenTtl(30); // due for a refresh at the first call
    const id = await oauthIntegration("Revoked");
    await connect(owner, id);
    server.revokeRefreshTokens();

    const reconnect =
      /^error: Revoked needs to be connected again: the authorization server refused the refresh token/;
    expect(await whoami(owner, id)).toMatch(reconnect);
    const view = await getIntegration(db(), owner, id);
    expect(view.oauth?.connection).toMatchObject({ status: "needs_reconnect" });
    expect(view.status).toBe("failing");
    expect(view.lastError).toMatch(/needs to be connected again/);
    // Later calls say the same without presenting the refused token again.
    const refusals = server.stats.refreshTokenReuse + server.stats.refreshGrants;
    expect(await whoami(member, id)).toMatch(reconnect);
    expect(server.stats.refreshTokenReuse + server.stats.refreshGrants).toBe(refusals);
    expect(await whoami(owner, healthy)).toBe("You are alice.");

    server.setAccessTokenTtl(3600);
    await connect(owner, id);
    expect(await whoami(owner, id)).toBe("You are alice.");
    expect((await getIntegration(db(), owner, id)).status).toBe("connected");
  });

  it("forgets the tokens on disconnect, and when the server or client changes", async () => {
    const id = await oauthIntegration("Forget");
    await connect(owner, id);
    const revocations = server.stats.revocations;
    expect(await disconnectOAuth(db(), owner, id, { personal: false })).toEqual({ revoked: true });
    expect(server.stats.revocations).toBe(revocations + 2); // the refresh token and the access token
    expect(await storedCredential(id)).toBeUndefined();
    expect(await whoami(owner, id)).toMatch(/not connected yet/);
    await connect(owner, id);
    await updateIntegration(db(), owner, id, {
      oauthClientId: "pre-registered",
      oauthClientSecret: "s3cret",
    });
    expect(await storedCredential(id)).toBeUndefined();
    const [row] = await db().select().from(mcpIntegrations).where(eq(mcpIntegrations.id, id));
    expect(Object.keys(row?.credentialsEncrypted ?? {})).toEqual(["clientSecret"]);
    expect(row?.oauth).toMatchObject({ credentials: "organization", clientId: "pre-registered" });
  });
});

describe("two token sources refreshing the same token, as two app processes would", () => {
  // On PostgreSQL they take turns on the row lock; on the embedded database (one process) on a process lock.
  it("take turns: the second uses the first's new token, never the rotated refresh token", async () => {
    const id = await oauthIntegration("Instances");
    await connect(owner, id);
    const integration = await findIntegrationForOrg(db(), owner.orgId, id);
    const discovery = integration && discoveryOf(integration);
    const client = integration && oauthClientOf(integration);
    if (!discovery || !client) throw new Error("the connection left no discovery or client");
    const owned = { organizationId: owner.orgId, integrationId: id, userId: null };
    const vault = storedTokenVault(db(), owned, "Instances");
    const stale = decryptSecret((await storedCredential(id))?.accessTokenEncrypted ?? "");
    // Separate keys stand for separate processes: the in-process single flight cannot join them.
    const instance = (n: number) =>
      new OAuthTokenSource(
        { ...vault, key: `${vault.key}:process-${n}` },
        refreshGrant(discovery, client, fetch),
        {
          notConnected: () => new Error("not connected"),
          reconnect: (reason) => new Error(reason),
          isRevocation,
        },
      );
    server.setRefreshDelay(300);
    const refreshes = server.stats.refreshGrants;
    const [first, second] = await Promise.all([
      instance(1).afterRejection(stale),
      new Promise((resolve) => setTimeout(resolve, 50)).then(() => instance(2).afterRejection(stale)),
    ]);
    expect(first).not.toBe(stale);
    expect(second).toBe(first);
    expect(server.stats.refreshGrants).toBe(refreshes + 1);
    expect(server.stats.refreshTokenReuse).toBe(0);
  });
});

describe("each user connects their own account", () => {
  let id: string;
  beforeAll(async () => {
    id = await oauthIntegration("Personal", "user");
  });

  it("tells a user who has not connected, without marking the integration failing", async () => {
    expect(await whoami(member, id)).toBe(
      "error: You have not connected your Personal account yet: connect it on its page under Integrations.",
    );
    const tested = await testIntegration(db(), member, id);
    expect(tested).toMatchObject({
      ok: false,
      error: expect.stringMatching(/not connected your Personal account/),
    });
    expect((await getIntegration(db(), owner, id)).status).not.toBe("failing");
  });

  it("uses each user's own tokens, and only theirs", async () => {
    server.signInAs("alice");
    await connect(owner, id, true);
    server.signInAs("bob");
    await connect(member, id, true);
    expect(await whoami(owner, id)).toBe("You are alice.");
    expect(await whoami(member, id)).toBe("You are bob.");

    const ownerView = await getIntegration(db(), owner, id);
    expect(ownerView.oauth).toMatchObject({
      credentials: "user",
      connectedUsers: 2,
      connection: { status: "connected" },
    });
    const rows = await db()
      .select()
      .from(mcpOAuthCredentials)
      .where(and(eq(mcpOAuthCredentials.integrationId, id)));
    expect(rows.map((row) => row.userId).sort()).toEqual([owner.userId, member.userId].sort());

    await disconnectOAuth(db(), member, id, { personal: true });
    expect(await whoami(member, id)).toMatch(/You have not connected your Personal account/);
    expect(await whoami(owner, id)).toBe("You are alice.");
  });

  it("tells the user in the chat, where the conversation start lists it as unavailable", async () => {
    const agent = await ensureDefaultAgent(db(), member.orgId);
    const conversation = await createConversation(db(), member, agent.id);
    const prepared = await prepareConversation(db(), member, conversation);
    const entry = prepared.discovery.integrations.find((i) => i.integrationId === id);
    expect(entry).toMatchObject({
      status: "failed",
      errorType: "forbidden:mcp_oauth_not_connected",
      message: expect.stringMatching(/You have not connected your Personal account yet/),
    });
    server.signInAs("mel");
    await connect(member, id, true);
    const again = await prepareConversation(db(), member, conversation, { refresh: true });
    expect(again.discovery.integrations.find((i) => i.integrationId === id)).toMatchObject({
      status: "connected",
    });
    expect(Object.keys(again.active.tools)).toContain("personal_whoami");
    await disconnectOAuth(db(), member, id, { personal: true });
  });

  it("refuses API keys, which belong to no user, and other organizations", async () => {
    const { apiKey } = await createApiKey(db(), owner, { name: "Robot" });
    const keyCtx: RequestContext = {
      apiKeyId: apiKey.id,
      orgId: owner.orgId,
      role: "member",
      isSuperadmin: false,
    };
    const result = await runIntegrationTool(db(), keyCtx, id, "whoami", {});
    expect(result.errorMessage).toMatch(/an API key belongs to no user/);
    expect((await appErrorOf(runIntegrationTool(db(), outsider, id, "whoami", {}))).status).toBe(404);
    expect(
      (await appErrorOf(startOAuthConnection(db(), outsider, id, { personal: true, redirectUrl: REDIRECT })))
        .status,
    ).toBe(404);
  });
});

describe("a member who leaves", () => {
  it("takes their own connected accounts along", async () => {
    const id = await oauthIntegration("Leaving", "user");
    server.signInAs("mel");
    await connect(member, id, true);
    expect(await storedCredential(id)).toMatchObject({ userId: member.userId });
    await removeMember(db(), owner, { userId: member.userId });
    expect(await storedCredential(id)).toBeUndefined();
  });
});

describe("secrets", () => {
  it("never writes tokens, codes or the client secret to the logs", async () => {
    const lines: string[] = [];
    const capture = (chunk: unknown) => {
      lines.push(String(chunk));
      return true;
    };
    const out = vi.spyOn(process.stdout, "write").mockImplementation(capture);
    const err = vi.spyOn(process.stderr, "write").mockImplementation(capture);
    try {
      const id = await oauthIntegration("Logged");
      await connect(owner, id);
      server.invalidateAccessTokens();
      await whoami(owner, id);
      server.invalidateAccessTokens();
      server.revokeRefreshTokens();
      await whoami(owner, id);
      const row = await findIntegrationForOrg(db(), owner.orgId, id);
      const registration = decryptSecret(row?.credentialsEncrypted.registeredClient ?? "");
      const credential = await storedCredential(id);
      const secrets = [
        decryptSecret(credential?.accessTokenEncrypted ?? ""),
        ...(credential?.refreshTokenEncrypted ? [decryptSecret(credential.refreshTokenEncrypted)] : []),
        JSON.parse(registration).client_id as string,
      ];
      expect(lines.length).toBeGreaterThan(0);
      const audit = await db().select().from(auditEvents).where(eq(auditEvents.targetId, id));
      expect(audit.find((event) => event.action === "integration.oauth_connect")).toMatchObject({
        actorUserId: owner.userId,
        after: { "oauth.tokens": "changed" },
      });
      secrets.push(decryptSecret(row?.credentialsEncrypted.registeredClient ?? ""));
      for (const secret of secrets) expect(JSON.stringify(audit)).not.toContain(secret);
      for (const secret of secrets) expect(lines.join("\n")).not.toContain(secret);
      expect(lines.join("\n")).not.toMatch(/\b(at|rt)-[A-Za-z0-9_-]{10,}/);
    } finally {
      out.mockRestore();
      err.mockRestore();
    }
  });
});
