import { createHash, randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import { mcpIntegrations, users } from "@/db/schema";
import { createApiKey } from "@/lib/api-keys/api-keys";
import { type RequestContext, resolveUserContext, systemContext } from "@/lib/auth/context";
import { createUserInOrganization, createUserWithoutOrganization } from "@/lib/auth/users";
import { getMcpClient } from "@/lib/mcp/client/shared-client";
import { createIntegration } from "@/lib/mcp/integrations/create-integration";
import { testIntegration } from "@/lib/mcp/integrations/test-connection";
import { checkAuthorizationRequest } from "@/lib/oauth-server/authorization-requests";
import { registerClient } from "@/lib/oauth-server/clients";
import { approveAuthorization } from "@/lib/oauth-server/consent";
import { tokenRequest } from "@/lib/oauth-server/token-endpoint";
import { createOrganization } from "@/lib/orgs/organizations";

/** An organization with a unique slug, and an owner's context in it for the app's own functions. */
export async function createBenchOrganization(db: Database, name: string) {
  const slug = `${name.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-${randomBytes(3).toString("hex")}`;
  const org = await createOrganization(db, { name, slug });
  const ctx = systemContext("operator-cli", org.id);
  return { org, ctx };
}

/** API keys of the organization, each printed once by the app and kept here in plain text. */
export async function createBenchApiKeys(db: Database, ctx: RequestContext, count = 1): Promise<string[]> {
  const keys: string[] = [];
  for (let i = 0; i < count; i++) keys.push((await createApiKey(db, ctx, { name: `bench ${i + 1}` })).key);
  return keys;
}

/**
 * An integration added the way the UI adds one (create, then test the connection, which stores its discovery),
 * so its tools are `<slug>_<tool>`.
 */
export async function addIntegration(db: Database, ctx: RequestContext, name: string, url: string) {
  const integration = await createIntegration(db, ctx, {
    source: "custom",
    name,
    transport: "streamable-http",
    url,
  });
  const tested = await testIntegration(db, ctx, integration.id);
  if (!tested.ok) throw new Error(`The integration "${name}" did not connect: ${tested.error}`);
  return integration;
}

/**
 * `count` integrations of `toolsEach` tools, written as the stored discovery a connected server leaves: listings
 * read that, never the servers. Their addresses never resolve (`.invalid`), so the background health check fails
 * them at once instead of waiting on a timeout.
 */
export async function insertStoredIntegrations(
  db: Database,
  orgId: string,
  options: { count: number; toolsEach: number; slugPrefix?: string },
) {
  const prefix = options.slugPrefix ?? "server";
  const rows = Array.from({ length: options.count }, (_, i) => ({
    organizationId: orgId,
    name: `Server ${i}`,
    slug: `${prefix}_${i}`,
    transport: "streamable-http" as const,
    url: `https://server-${i}.bench.invalid/mcp`,
    status: "connected" as const,
    lastCheckedAt: new Date(),
    lastLatencyMs: 20,
    discovered: {
      tools: Array.from({ length: options.toolsEach }, (_, t) => ({
        name: `tool_${t}`,
        description: `Tool ${t} of server ${i}: looks things up by a query and answers with what it found.`,
        inputSchema: {
          type: "object" as const,
          properties: { query: { type: "string", description: "What to look for" } },
          required: ["query"],
        },
      })),
      resources: [],
      prompts: [],
    },
  }));
  for (let i = 0; i < rows.length; i += 50) await db.insert(mcpIntegrations).values(rows.slice(i, i + 50));
}

/**
 * A person who signs in with a password as the organization's owner. The first account of an installation
 * becomes superadmin, so a fresh database gets an operator account first: the owner stays a plain owner.
 */
export async function createBenchOwner(db: Database, orgId: string) {
  const password = `bench-${randomBytes(12).toString("hex")}`;
  const email = `owner-${randomBytes(4).toString("hex")}@bench.test`;
  await createUserWithoutOrganization(db, {
    email: `operator-${randomBytes(4).toString("hex")}@bench.test`,
    password,
  });
  await createUserInOrganization(db, { email, password, orgId, role: "owner" });
  return { email, password };
}

/** Closes the connections the bench process itself opened to MCP servers (testing integrations). */
export async function closeBenchClients() {
  await getMcpClient().pool.closeAll();
}

/**
 * Access tokens for the gateway, each from a grant of its own, made through the authorization server's own steps
 * (a client registered, its authorization request checked, consent given, the code exchanged with its PKCE
 * verifier), so each has its own rate limit, as each key has.
 */
export async function createBenchAccessTokens(db: Database, orgId: string, count: number): Promise<string[]> {
  const { email, password } = await createBenchOwner(db, orgId);
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  if (!user || !password) throw new Error("no bench owner");
  const person = await resolveUserContext(db, { userId: user.id, preferredOrgId: orgId });
  const issuer = "http://localhost";
  const redirectUri = "http://127.0.0.1/callback";
  const tokens: string[] = [];
  for (let i = 0; i < count; i++) {
    const client = await registerClient(
      db,
      { client_name: `Bench client ${i}`, redirect_uris: [redirectUri], token_endpoint_auth_method: "none" },
      { address: `bench-${i}` },
    );
    const verifier = randomBytes(32).toString("base64url");
    const params = new URLSearchParams({
      response_type: "code",
      client_id: String(client.client_id),
      redirect_uri: redirectUri,
      code_challenge: createHash("sha256").update(verifier).digest("base64url"),
      code_challenge_method: "S256",
      resource: `${issuer}/api/mcp`,
    });
    const check = await checkAuthorizationRequest(db, params, issuer);
    if (check.kind !== "pending") throw new Error(`authorization refused: ${check.error.message}`);
    const back = new URL(
      await approveAuthorization(
        db,
        person,
        check.requestId,
        { orgId, scope: null, metaToolsOnly: false },
        issuer,
      ),
    );
    const answer = await tokenRequest(
      db,
      new URLSearchParams({
        grant_type: "authorization_code",
        code: back.searchParams.get("code") ?? "",
        redirect_uri: redirectUri,
        code_verifier: verifier,
        client_id: String(client.client_id),
      }),
      { authorization: null, issuer },
    );
    tokens.push(answer.access_token);
  }
  return tokens;
}
