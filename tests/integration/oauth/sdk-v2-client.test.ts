import { Client, StreamableHTTPClientTransport, UnauthorizedError } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { UserContext } from "@/lib/auth/context";
import { APP, appFetch } from "./app-fetch";
import { type OAuthTestApp, openOAuthTestApp } from "./oauth-app";
import { consentTo, MemoryOAuthProvider, REDIRECT_URI } from "./test-client";

// The v2 MCP SDK's client, which follows the 2026-07-28 authorization text: it checks the `iss` of the authorization
// response (RFC 9207) and the issuer of the metadata, asks for offline_access, and steps up on 403 insufficient_scope
// by authorizing again for the union of the scopes it had and the one it was challenged for.

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

const transportFor = (path: string, provider: MemoryOAuthProvider) =>
  new StreamableHTTPClientTransport(new URL(`${APP}${path}`), { authProvider: provider, fetch: appFetch });

async function connect(path: string, provider: MemoryOAuthProvider): Promise<Client> {
  const client = new Client({ name: "v2-client", version: "1.0.0" });
  clients.push(client);
  await client.connect(transportFor(path, provider));
  return client;
}

describe("the MCP SDK's v2 client", () => {
  it("signs in, checks our issuer in the authorization response, and uses the gateway", async () => {
    const provider = new MemoryOAuthProvider(REDIRECT_URI);
    const transport = transportFor("/api/mcp", provider);
    await expect(
      new Client({ name: "v2-client", version: "1.0.0" }).connect(transport),
    ).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.authorizationUrl?.searchParams.get("scope")).toBe(
      "knowledge integrations capabilities offline_access",
    );
    const back = await consentTo(handle.db, ada, provider.authorizationUrl ?? "");
    // The whole callback: the client compares its iss with the issuer it discovered before using the code.
    await transport.finishAuth(back.searchParams);
    const client = await connect("/api/mcp", provider);
    const result = await client.callTool({ name: "echo_echo", arguments: { message: "v2" } });
    expect(result.content).toEqual([{ type: "text", text: "Echo: v2" }]);
  });

  it("refuses an authorization response that names another issuer", async () => {
    const provider = new MemoryOAuthProvider(REDIRECT_URI);
    const transport = transportFor("/api/mcp", provider);
    await expect(
      new Client({ name: "v2-client", version: "1.0.0" }).connect(transport),
    ).rejects.toBeInstanceOf(UnauthorizedError);
    const back = await consentTo(handle.db, ada, provider.authorizationUrl ?? "");
    back.searchParams.set("iss", "https://attacker.example");
    await expect(transport.finishAuth(back.searchParams)).rejects.toThrow(/issuer|iss/i);
  });

  it("steps up on 403 insufficient_scope: a second authorization with more scope, and the call goes through", async () => {
    const provider = new MemoryOAuthProvider(REDIRECT_URI);
    const transport = transportFor("/api/mcp/integrations/echo", provider);
    await expect(
      new Client({ name: "v2-client", version: "1.0.0" }).connect(transport),
    ).rejects.toBeInstanceOf(UnauthorizedError);
    // The person allows less than the client asked for: the knowledge tools only.
    const knowledgeOnly = { integrationIds: [], capabilityIds: [], builtins: true };
    const first = await consentTo(handle.db, ada, provider.authorizationUrl ?? "", { scope: knowledgeOnly });
    await transport.finishAuth(first.searchParams);
    expect(provider.saved?.scope).toBe("knowledge");

    // Its first request is refused with 403 insufficient_scope: the client asks again, for more.
    provider.authorizationUrl = undefined;
    await expect(connect("/api/mcp/integrations/echo", provider)).rejects.toBeInstanceOf(UnauthorizedError);
    const stepUp = provider.authorizationUrl as URL | undefined;
    expect(stepUp?.searchParams.get("scope")?.split(" ")).toEqual(
      expect.arrayContaining(["integration:echo", "knowledge"]),
    );
    const second = await consentTo(handle.db, ada, stepUp ?? "");
    const stepped = transportFor("/api/mcp/integrations/echo", provider);
    await stepped.finishAuth(second.searchParams);
    const client = await connect("/api/mcp/integrations/echo", provider);
    const result = await client.callTool({ name: "echo", arguments: { message: "stepped up" } });
    expect(result.content).toEqual([{ type: "text", text: "Echo: stepped up" }]);
  });
});
