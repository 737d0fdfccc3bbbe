import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { oauthGrants, oauthTokens } from "@/db/schema";
import type { UserContext } from "@/lib/auth/context";
import { dashboardData } from "@/lib/usage/dashboard";
import { textOf } from "../gateway-client";
import { usageRecordsOf } from "../usage-records";
import { APP, appFetch, postForm } from "./app-fetch";
import { type OAuthTestApp, openOAuthTestApp } from "./oauth-app";
import { consentTo, MemoryOAuthProvider, REDIRECT_URI } from "./test-client";

let app: OAuthTestApp;
let handle: OAuthTestApp["handle"];
let ada: UserContext;
const clients: Client[] = [];

beforeAll(async () => {
  app = await openOAuthTestApp({ echo: true });
  ({ handle, ada } = app);
}, 60_000);

afterAll(async () => {
  await Promise.allSettled(clients.map((client) => client.close()));
  await app?.close();
});

/** The SDK's client on an endpoint with the provider; connected once the provider holds tokens. */
async function connect(path: string, provider: MemoryOAuthProvider): Promise<Client> {
  const client = new Client({ name: "oauth-test", version: "1.0.0" });
  clients.push(client);
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${APP}${path}`), { authProvider: provider, fetch: appFetch }),
  );
  return client;
}

/** The whole first connection as a client makes it: refused, registered, sent to consent, code exchanged. */
async function signIn(path: string, provider: MemoryOAuthProvider, choice = {}): Promise<URL> {
  const transport = new StreamableHTTPClientTransport(new URL(`${APP}${path}`), {
    authProvider: provider,
    fetch: appFetch,
  });
  await expect(
    new Client({ name: "oauth-test", version: "1.0.0" }).connect(transport),
  ).rejects.toBeInstanceOf(UnauthorizedError);
  if (!provider.authorizationUrl) throw new Error("the client was not sent to authorize");
  const back = await consentTo(handle.db, ada, provider.authorizationUrl, choice);
  await transport.finishAuth(back.searchParams.get("code") ?? "");
  return back;
}

describe("an MCP client signing in with OAuth", () => {
  it("discovers the server from the 401, registers, authorizes with PKCE and uses the gateway", async () => {
    const provider = new MemoryOAuthProvider(REDIRECT_URI);
    const back = await signIn("/api/mcp", provider);
    // Dynamic registration gave it a client_id; the authorization answered with our issuer (RFC 9207).
    expect(provider.client?.client_id).toMatch(/^sbo_client_/);
    expect(provider.authorizationUrl?.searchParams.get("code_challenge_method")).toBe("S256");
    expect(provider.authorizationUrl?.searchParams.get("resource")).toBe(`${APP}/api/mcp`);
    expect(back.searchParams.get("iss")).toBe(APP);
    expect(provider.saved).toMatchObject({ token_type: "Bearer", expires_in: 3600 });
    expect(provider.saved?.access_token).toMatch(/^sbo_at_/);
    expect(provider.saved?.refresh_token).toMatch(/^sbo_rt_/);

    const client = await connect("/api/mcp", provider);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(["find_tools", "echo_echo", "node_knowledge_retriever"]));
    const result = await client.callTool({ name: "echo_echo", arguments: { message: "signed in" } });
    expect(textOf(result)).toBe("Echo: signed in");
    // Recorded in usage as the person's call, through the client.
    const [grant] = await handle.db.select().from(oauthGrants).where(eq(oauthGrants.userId, ada.userId));
    const records = await usageRecordsOf(handle.db, ada.orgId, "gateway", "echo_echo");
    expect(records.at(-1)).toMatchObject({
      userId: ada.userId,
      apiKeyId: null,
      oauthClientId: grant?.clientId,
    });
    // The dashboard counts it per client.
    const day = 24 * 3600_000;
    const { oauthClients } = await dashboardData(handle.db, ada.orgId, {
      from: new Date(Date.now() - day),
      to: new Date(Date.now() + day),
    });
    expect(oauthClients).toEqual([
      expect.objectContaining({
        oauthClientId: grant?.clientId,
        name: "Test MCP client",
        calls: 1,
        people: 1,
      }),
    ]);
  });

  it("keeps the state a client sends, and comes back to it", async () => {
    const provider = Object.assign(new MemoryOAuthProvider(REDIRECT_URI), {
      state: () => "round-trip-state",
    });
    const back = await signIn("/api/mcp", provider);
    expect(back.searchParams.get("state")).toBe("round-trip-state");
  });

  it("uses an integration's pass-through endpoint with a token for that endpoint", async () => {
    const provider = new MemoryOAuthProvider(REDIRECT_URI);
    await signIn("/api/mcp/integrations/echo", provider);
    expect(provider.authorizationUrl?.searchParams.get("resource")).toBe(`${APP}/api/mcp/integrations/echo`);
    expect(provider.authorizationUrl?.searchParams.get("scope")).toBe("integration:echo");
    const client = await connect("/api/mcp/integrations/echo", provider);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("echo");
    const result = await client.callTool({ name: "echo", arguments: { message: "passed through" } });
    expect(textOf(result)).toBe("Echo: passed through");
  });

  it("refreshes an expired access token with its refresh token, which rotates", async () => {
    const provider = new MemoryOAuthProvider(REDIRECT_URI);
    await signIn("/api/mcp", provider);
    const first = provider.saved;
    // The access token runs out (an hour, as if it had passed).
    await handle.db
      .update(oauthTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(oauthTokens.kind, "access"));
    const client = await connect("/api/mcp", provider);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    expect(provider.saved?.access_token).not.toBe(first?.access_token);
    expect(provider.saved?.refresh_token).not.toBe(first?.refresh_token);
  });

  it("is disconnected by revoking its refresh token (RFC 7009)", async () => {
    const provider = new MemoryOAuthProvider(REDIRECT_URI);
    await signIn("/api/mcp", provider);
    const revoked = await postForm("/oauth/revoke", {
      token: provider.saved?.refresh_token ?? "",
      token_type_hint: "refresh_token",
      client_id: provider.client?.client_id ?? "",
    });
    expect(revoked.status).toBe(200);
    const answer = await appFetch(`${APP}/api/mcp`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${provider.saved?.access_token}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(answer.status).toBe(401);
    expect(answer.headers.get("www-authenticate")).toContain('error="invalid_token"');
  });
});
