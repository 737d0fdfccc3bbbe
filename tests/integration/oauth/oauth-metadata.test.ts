import { OAuthMetadataSchema, OAuthProtectedResourceMetadataSchema } from "@modelcontextprotocol/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/api-keys/api-keys";
import type { UserContext } from "@/lib/auth/context";
import { APP, appFetch } from "./app-fetch";
import { listTools } from "./mcp-post";
import { type OAuthTestApp, openOAuthTestApp } from "./oauth-app";

let app: OAuthTestApp;
let handle: OAuthTestApp["handle"];
let ada: UserContext;

beforeAll(async () => {
  app = await openOAuthTestApp({ echo: false });
  ({ handle, ada } = app);
}, 60_000);

afterAll(async () => {
  await app?.close();
});

const getJson = async (path: string, headers: Record<string, string> = {}) => {
  const answer = await appFetch(`${APP}${path}`, { headers });
  return {
    status: answer.status,
    type: answer.headers.get("content-type"),
    body: (await answer.json()) as Record<string, unknown>,
  };
};

describe("the published metadata", () => {
  it("describes the authorization server (RFC 8414) as MCP clients need it", async () => {
    const { status, body } = await getJson("/.well-known/oauth-authorization-server");
    expect(status).toBe(200);
    const metadata = OAuthMetadataSchema.parse(body);
    expect(metadata).toMatchObject({
      issuer: APP,
      authorization_endpoint: `${APP}/oauth/authorize`,
      token_endpoint: `${APP}/oauth/token`,
      registration_endpoint: `${APP}/oauth/register`,
      revocation_endpoint: `${APP}/oauth/revoke`,
      response_types_supported: ["code"],
      code_challenge_methods_supported: ["S256"],
      client_id_metadata_document_supported: true,
      authorization_response_iss_parameter_supported: true,
    });
    expect((await getJson("/.well-known/openid-configuration")).body).toEqual(body);
  });

  it.each([
    [
      "/api/mcp",
      "/.well-known/oauth-protected-resource/api/mcp",
      ["knowledge", "integrations", "capabilities"],
    ],
    [
      "/api/mcp/integrations/docs",
      "/.well-known/oauth-protected-resource/api/mcp/integrations/docs",
      ["integration:docs"],
    ],
    ["/api/mcp", "/.well-known/oauth-protected-resource", ["knowledge", "integrations", "capabilities"]],
  ])("publishes %s's protected resource metadata (RFC 9728) at %s", async (endpoint, path, scopes) => {
    const { status, body } = await getJson(path);
    expect(status).toBe(200);
    expect(OAuthProtectedResourceMetadataSchema.parse(body)).toMatchObject({
      resource: `${APP}${endpoint}`,
      authorization_servers: [APP],
      scopes_supported: scopes,
    });
  });

  it.each([
    "/.well-known/oauth-protected-resource/elsewhere",
    "/.well-known/oauth-authorization-server/api/mcp",
    "/.well-known/security.txt",
    "/oauth/nothing-here",
  ])("answers %s it does not serve with a JSON 404", async (path) => {
    const { status, type, body } = await getJson(path);
    expect(status).toBe(404);
    expect(type).toMatch(/^application\/json/);
    expect(body).toMatchObject({ error: "not_found" });
  });

  it("answers other methods on a metadata path with a JSON 405", async () => {
    const answer = await appFetch(`${APP}/.well-known/oauth-authorization-server`, {
      method: "POST",
      body: "x",
    });
    expect(answer.status).toBe(405);
    expect(await answer.json()).toMatchObject({ error: "method_not_allowed" });
  });
});

describe("the MCP endpoints' challenges", () => {
  it("point a request without credentials to the metadata, naming no error (RFC 6750 §3.1)", async () => {
    const answer = await listTools("/api/mcp");
    expect(answer.status).toBe(401);
    expect(answer.headers.get("www-authenticate")).toBe(
      `Bearer resource_metadata="${APP}/.well-known/oauth-protected-resource/api/mcp", scope="knowledge integrations capabilities"`,
    );
    const passThrough = await listTools("/api/mcp/integrations/docs");
    expect(passThrough.headers.get("www-authenticate")).toContain('scope="integration:docs"');
  });

  it("say invalid_token for a wrong API key or token, with what was wrong", async () => {
    const wrongKey = await listTools("/api/mcp", "sb_abcdefgh_notarealkeynotarealkeynotarealkey");
    expect(wrongKey.status).toBe(401);
    expect(wrongKey.headers.get("www-authenticate")).toMatch(
      /^Bearer error="invalid_token", error_description="This API key is not valid or has been revoked.", scope=".*", resource_metadata=".*\/api\/mcp"$/,
    );
    const body = (await wrongKey.json()) as { error: { message: string } };
    expect(body.error.message).toBe("This API key is not valid or has been revoked.");
    const wrongToken = await listTools("/api/mcp", "sbo_at_notatokennotatokennotatokennotatokennot");
    expect(wrongToken.headers.get("www-authenticate")).toContain('error="invalid_token"');
  });

  it("let an API key in exactly as before", async () => {
    const { key } = await createApiKey(handle.db, ada, { name: "still works" });
    expect((await listTools("/api/mcp", key)).status).toBe(200);
  });
});

describe("the app's own origin", () => {
  it("is never a Host or X-Forwarded-Host a client sends, in metadata", async () => {
    const spoofs: Record<string, string>[] = [
      { "x-forwarded-host": "evil.example" },
      { "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" },
    ];
    for (const headers of spoofs) {
      const { body } = await getJson("/.well-known/oauth-authorization-server", headers);
      expect(body.issuer).toBe(APP);
    }
    const spoofed = await appFetch(`${APP}/.well-known/oauth-authorization-server`);
    expect(spoofed.status).toBe(200);
    const evilHost = await authorizationServerAt("evil.example");
    expect(evilHost.issuer).toBe("http://localhost:3000");
  });
});

/** The authorization server's metadata as answered to a request whose Host header names `host`. */
async function authorizationServerAt(host: string) {
  const { GET } = await import("@/app/.well-known/oauth-authorization-server/[[...path]]/route");
  const request = new Request(`http://${host}/.well-known/oauth-authorization-server`, { headers: { host } });
  return (await (await GET(request, { params: Promise.resolve({}) })).json()) as { issuer: string };
}
