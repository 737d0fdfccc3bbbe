import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { changePassword } from "@/lib/auth/change-password";
import { resolveUserContext, type UserContext } from "@/lib/auth/context";
import { verifyAccessToken } from "@/lib/oauth-server/access-tokens";
import { listOwnGrants, revokeGrant } from "@/lib/oauth-server/grants";
import { setOrganizationOAuthPolicy } from "@/lib/oauth-server/org-policy";
import { removeMember } from "@/lib/orgs/members";
import { setUserDisabled } from "@/lib/platform/platform-admin";
import { itOnPostgres } from "../on-postgres";
import { joinByInvitation, registerOwners } from "../org-users";
import { openSecondInstance } from "../second-instance";
import { APP, appFetch, postForm } from "./app-fetch";
import { listTools } from "./mcp-post";
import { type OAuthTestApp, openOAuthTestApp } from "./oauth-app";
import {
  authorizationUrl,
  consentTo,
  pkce,
  REDIRECT_URI,
  registerPublicClient,
  tokensFor,
} from "./test-client";

let app: OAuthTestApp;
let handle: OAuthTestApp["handle"];
let ada: UserContext;

beforeAll(async () => {
  app = await openOAuthTestApp({ echo: true });
  ({ handle, ada } = app);
}, 60_000);

afterAll(async () => {
  await app?.close();
});

/** A member of Ada's organization, invited and signed in as they would be. */
async function member(name: string): Promise<UserContext> {
  const [own] = (await registerOwners(handle.db, name)) as [UserContext];
  await joinByInvitation(handle.db, ada, { email: `${name.toLowerCase()}@example.com`, role: "member" });
  return resolveUserContext(handle.db, { userId: own.userId, preferredOrgId: ada.orgId });
}

/** The authorization endpoint's answer to a request, without following redirects. */
const authorize = (url: URL) => appFetch(url.toString(), { redirect: "manual" });

const exchange = (fields: Record<string, string>) =>
  postForm("/oauth/token", { grant_type: "authorization_code", redirect_uri: REDIRECT_URI, ...fields });

async function errorOf(response: Response): Promise<string> {
  const body = (await response.json()) as { error?: string };
  return `${response.status} ${body.error}`;
}

describe("the authorization server refuses", () => {
  it("a redirect URI the client did not register, answering in JSON without redirecting", async () => {
    const clientId = await registerPublicClient();
    const answer = await authorize(
      authorizationUrl(clientId, pkce().challenge, { redirect_uri: "https://attacker.example/callback" }),
    );
    expect(answer.status).toBe(400);
    expect(answer.headers.get("location")).toBeNull();
    expect(await answer.json()).toEqual({
      error: "invalid_request",
      error_description: "redirect_uri is not one the client registered.",
    });
  });

  it("a request without PKCE, back at the client's redirect URI with its state and our issuer", async () => {
    const clientId = await registerPublicClient();
    const url = authorizationUrl(clientId, "");
    url.searchParams.delete("code_challenge");
    url.searchParams.delete("code_challenge_method");
    const answer = await authorize(url);
    expect(answer.status).toBe(302);
    const back = new URL(answer.headers.get("location") ?? "");
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT_URI);
    expect(back.searchParams.get("error")).toBe("invalid_request");
    expect(back.searchParams.get("error_description")).toMatch(/PKCE is required/);
    expect(back.searchParams.get("state")).toBe("state-123");
    expect(back.searchParams.get("iss")).toBe(APP);
  });

  it("plain PKCE: only S256", async () => {
    const clientId = await registerPublicClient();
    const { verifier } = pkce();
    const answer = await authorize(authorizationUrl(clientId, verifier, { code_challenge_method: "plain" }));
    const back = new URL(answer.headers.get("location") ?? "");
    expect(back.searchParams.get("error")).toBe("invalid_request");
    expect(back.searchParams.get("error_description")).toMatch(/S256/);
  });

  it("a code used twice, and ends the grant it came from", async () => {
    const clientId = await registerPublicClient();
    const { verifier, challenge } = pkce();
    const code =
      (await consentTo(handle.db, ada, authorizationUrl(clientId, challenge))).searchParams.get("code") ?? "";
    const first = await exchange({ code, code_verifier: verifier, client_id: clientId });
    expect(first.status).toBe(200);
    const { access_token: access } = (await first.json()) as { access_token: string };
    expect((await listTools("/api/mcp", access)).status).toBe(200);
    const second = await exchange({ code, code_verifier: verifier, client_id: clientId });
    expect(await errorOf(second)).toBe("400 invalid_grant");
    // Whoever held the code may hold the tokens: they end with the grant.
    expect((await listTools("/api/mcp", access)).status).toBe(401);
  });

  it("a code issued to another client", async () => {
    const clientId = await registerPublicClient();
    const otherClient = await registerPublicClient();
    const { verifier, challenge } = pkce();
    const code =
      (await consentTo(handle.db, ada, authorizationUrl(clientId, challenge))).searchParams.get("code") ?? "";
    const stolen = await exchange({ code, code_verifier: verifier, client_id: otherClient });
    expect(await errorOf(stolen)).toBe("400 invalid_grant");
    // The rightful client still gets its tokens.
    expect((await exchange({ code, code_verifier: verifier, client_id: clientId })).status).toBe(200);
  });

  it("a code without the verifier of its challenge", async () => {
    const clientId = await registerPublicClient();
    const { challenge } = pkce();
    const code =
      (await consentTo(handle.db, ada, authorizationUrl(clientId, challenge))).searchParams.get("code") ?? "";
    expect(await errorOf(await exchange({ code, client_id: clientId }))).toBe("400 invalid_request");
    expect(await errorOf(await exchange({ code, code_verifier: pkce().verifier, client_id: clientId }))).toBe(
      "400 invalid_grant",
    );
  });

  it("a token at an endpoint it was not issued for (RFC 8707)", async () => {
    const gateway = await tokensFor(handle.db, ada);
    const passThrough = await tokensFor(handle.db, ada, { resource: `${APP}/api/mcp/integrations/echo` });
    expect((await listTools("/api/mcp/integrations/echo", passThrough.access)).status).toBe(200);
    for (const [path, token] of [
      ["/api/mcp/integrations/echo", gateway.access],
      ["/api/mcp", passThrough.access],
    ] as const) {
      const refused = await listTools(path, token);
      expect(refused.status).toBe(401);
      expect(refused.headers.get("www-authenticate")).toMatch(/error="invalid_token".*another resource/);
    }
  });

  it("an expired access token", async () => {
    const { access } = await tokensFor(handle.db, ada);
    expect((await listTools("/api/mcp", access)).status).toBe(200);
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(Date.now() + 3601_000);
      const refused = await listTools("/api/mcp", access);
      expect(refused.status).toBe(401);
      expect(refused.headers.get("www-authenticate")).toMatch(
        /error="invalid_token", error_description="The access token has expired."/,
      );
    } finally {
      vi.useRealTimers();
    }
  });

  it("a replayed refresh token, ending the whole grant", async () => {
    const { clientId, refresh } = await tokensFor(handle.db, ada);
    const rotate = (token: string) =>
      postForm("/oauth/token", { grant_type: "refresh_token", refresh_token: token, client_id: clientId });
    const rotated = (await (await rotate(refresh)).json()) as { access_token: string; refresh_token: string };
    expect(rotated.refresh_token).not.toBe(refresh);
    expect((await listTools("/api/mcp", rotated.access_token)).status).toBe(200);
    const replayed = await rotate(refresh);
    expect(await errorOf(replayed)).toBe("400 invalid_grant");
    // The thief's or the client's newer tokens: neither works now.
    expect((await listTools("/api/mcp", rotated.access_token)).status).toBe(401);
    expect(await errorOf(await rotate(rotated.refresh_token))).toBe("400 invalid_grant");
  });

  it("a removed member's token, at once", async () => {
    const bo = await member("Bo");
    const { access } = await tokensFor(handle.db, bo);
    expect((await listTools("/api/mcp", access)).status).toBe(200);
    await removeMember(handle.db, ada, { userId: bo.userId });
    expect((await listTools("/api/mcp", access)).status).toBe(401);
    expect(await listOwnGrants(handle.db, bo)).toEqual([]);
  });

  it("the token of a disabled user, or of one whose password changed", async () => {
    const cy = await member("Cy");
    const disabledToken = (await tokensFor(handle.db, cy)).access;
    await setUserDisabled(handle.db, ada, cy.userId, true);
    expect((await listTools("/api/mcp", disabledToken)).status).toBe(401);

    const di = await member("Di");
    const changedToken = (await tokensFor(handle.db, di)).access;
    await changePassword(handle.db, {
      userId: di.userId,
      currentPassword: "password di",
      newPassword: "a new password for di",
    });
    expect((await listTools("/api/mcp", changedToken)).status).toBe(401);
  });

  it("a grant without the integration passed through: 403 insufficient_scope, then a second authorization with more", async () => {
    const resource = `${APP}/api/mcp/integrations/echo`;
    const knowledgeOnly = { integrationIds: [], capabilityIds: [], builtins: true };
    const narrow = await tokensFor(handle.db, ada, { resource, choice: { scope: knowledgeOnly } });
    const refused = await listTools("/api/mcp/integrations/echo", narrow.access);
    expect(refused.status).toBe(403);
    const challenge = refused.headers.get("www-authenticate") ?? "";
    expect(challenge).toContain('error="insufficient_scope"');
    expect(challenge).toContain('scope="integration:echo"');
    expect(challenge).toContain(
      `resource_metadata="${APP}/.well-known/oauth-protected-resource/api/mcp/integrations/echo"`,
    );

    // The client asks again, for that scope; the person allows it.
    const { verifier, challenge: codeChallenge } = pkce();
    const back = await consentTo(
      handle.db,
      ada,
      authorizationUrl(narrow.clientId, codeChallenge, { resource, scope: "integration:echo" }),
    );
    const wider = await exchange({
      code: back.searchParams.get("code") ?? "",
      code_verifier: verifier,
      client_id: narrow.clientId,
      resource,
    });
    const { access_token: access, scope } = (await wider.json()) as { access_token: string; scope: string };
    expect(scope).toBe("knowledge integrations capabilities");
    expect((await listTools("/api/mcp/integrations/echo", access)).status).toBe(200);
  });

  it("clients of an organization that turned them off, and redirect hosts it does not allow", async () => {
    const { access } = await tokensFor(handle.db, ada);
    expect((await listTools("/api/mcp", access)).status).toBe(200);
    await setOrganizationOAuthPolicy(handle.db, ada, { enabled: false, redirectHosts: null });
    expect((await listTools("/api/mcp", access)).status).toBe(401);
    await expect(tokensFor(handle.db, ada)).rejects.toThrow(/turned OAuth clients off/);

    await setOrganizationOAuthPolicy(handle.db, ada, { enabled: true, redirectHosts: ["claude.ai"] });
    await expect(tokensFor(handle.db, ada)).rejects.toThrow(/send you back to 127\.0\.0\.1/);
    await setOrganizationOAuthPolicy(handle.db, ada, {
      enabled: true,
      redirectHosts: ["claude.ai", "127.0.0.1"],
    });
    const allowed = await tokensFor(handle.db, ada);
    expect((await listTools("/api/mcp", allowed.access)).status).toBe(200);
    // Narrowing the hosts again ends the grants of clients that could only go elsewhere.
    await setOrganizationOAuthPolicy(handle.db, ada, { enabled: true, redirectHosts: ["claude.ai"] });
    expect((await listTools("/api/mcp", allowed.access)).status).toBe(401);
    await setOrganizationOAuthPolicy(handle.db, ada, { enabled: true, redirectHosts: null });
  });

  itOnPostgres("a grant revoked on another instance, soon after, through the change feed", async () => {
    const other = openSecondInstance(handle.db);
    try {
      const { access } = await tokensFor(handle.db, ada);
      const onOther = () =>
        verifyAccessToken(other.db, access, "gateway").then(
          () => 200,
          () => 401,
        );
      // Kept in the other instance's memory: it would keep answering without the database.
      expect(await onOther()).toBe(200);
      expect(await onOther()).toBe(200);
      const [grant] = await listOwnGrants(handle.db, ada);
      const revoked = performance.now();
      await revokeGrant(handle.db, ada, grant?.id ?? "");
      await expect.poll(onOther, { timeout: 2000, interval: 5 }).toBe(401);
      const latencyMs = performance.now() - revoked;
      console.log(
        `[oauth revocation] refused on the other instance ${latencyMs.toFixed(1)} ms after revoking`,
      );
    } finally {
      await other.close();
    }
  });
});
