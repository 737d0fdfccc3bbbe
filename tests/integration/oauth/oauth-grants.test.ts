import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as metricsRoute } from "@/app/api/metrics/route";
import { listAuditEvents } from "@/lib/audit/list-audit";
import { resolveUserContext, type UserContext } from "@/lib/auth/context";
import { resetMetrics } from "@/lib/metrics/metrics";
import { consentView } from "@/lib/oauth-server/consent-view";
import { listOrganizationGrants, listOwnGrants, revokeGrant } from "@/lib/oauth-server/grants";
import { setOrganizationOAuthPolicy } from "@/lib/oauth-server/org-policy";
import { joinByInvitation, registerOwners } from "../org-users";
import { parseMetrics, sum } from "../prometheus-text";
import { APP, appFetch } from "./app-fetch";
import { listTools } from "./mcp-post";
import { type OAuthTestApp, openOAuthTestApp } from "./oauth-app";
import { authorizationUrl, consentTo, pkce, registerPublicClient, tokensFor } from "./test-client";

process.env.API_RATE_LIMIT_PER_MINUTE = "5";
process.env.METRICS_TOKEN = "metrics-token-for-the-oauth-tests";

let app: OAuthTestApp;
let handle: OAuthTestApp["handle"];
let ada: UserContext;
let bo: UserContext;

beforeAll(async () => {
  resetMetrics();
  app = await openOAuthTestApp({ echo: true });
  ({ handle, ada } = app);
  const [own] = (await registerOwners(handle.db, "Bo")) as [UserContext];
  await joinByInvitation(handle.db, ada, { email: "bo@example.com", role: "member" });
  bo = await resolveUserContext(handle.db, { userId: own.userId, preferredOrgId: ada.orgId });
}, 60_000);

afterAll(async () => {
  await app?.close();
  resetMetrics();
});

const day = 24 * 3600_000;
const range = () => ({ from: new Date(Date.now() - day), to: new Date(Date.now() + day) });

describe("grants", () => {
  it("remember what the person chose for a client: the next consent proposes it", async () => {
    const clientId = await registerPublicClient();
    const knowledgeOnly = { integrationIds: [], capabilityIds: [], builtins: true };
    await consentTo(handle.db, ada, authorizationUrl(clientId, pkce().challenge), {
      scope: knowledgeOnly,
      metaToolsOnly: true,
    });
    const again = await appFetch(authorizationUrl(clientId, pkce().challenge).toString(), {
      redirect: "manual",
    });
    const requestId = new URL(again.headers.get("location") ?? "", APP).searchParams.get("request") ?? "";
    const view = await consentView(handle.db, ada, requestId);
    expect(view?.preselectedOrgId).toBe(ada.orgId);
    const own = view?.organizations.find((org) => org.id === ada.orgId);
    expect(own?.proposed).toEqual({ scope: knowledgeOnly, metaToolsOnly: true });
  });

  it("are only for organizations the person belongs to", async () => {
    const clientId = await registerPublicClient();
    await expect(
      consentTo(handle.db, bo, authorizationUrl(clientId, pkce().challenge), {
        orgId: (await ownOrgOf("Cy")).orgId,
      }),
    ).rejects.toThrow("You are not a member of that organization.");
  });

  it("are revoked by their person, or any by the organization's owners and admins, never by another member", async () => {
    await tokensFor(handle.db, bo);
    const [grant] = await listOwnGrants(handle.db, bo);
    expect(grant).toBeDefined();
    const everyone = await listOrganizationGrants(handle.db, ada);
    expect(everyone.map((g) => g.person.email)).toContain("bo@example.com");
    await expect(listOrganizationGrants(handle.db, bo)).rejects.toThrow(/owners and admins/);

    const adasGrant = everyone.find((g) => g.person.email === "ada@example.com");
    await expect(revokeGrant(handle.db, bo, adasGrant?.id ?? "")).rejects.toThrow(/was not found/);
    await revokeGrant(handle.db, ada, grant?.id ?? "");
    expect(await listOwnGrants(handle.db, bo)).toEqual([]);
  });

  it("are audited: given, changed, revoked and refused", async () => {
    const { clientId } = await tokensFor(handle.db, ada);
    await consentTo(handle.db, ada, authorizationUrl(clientId, pkce().challenge), { metaToolsOnly: true });
    const [grant] = (await listOwnGrants(handle.db, ada)).filter((g) => g.metaToolsOnly);
    await revokeGrant(handle.db, ada, grant?.id ?? "");
    await setOrganizationOAuthPolicy(handle.db, ada, { enabled: true, redirectHosts: ["claude.ai"] });
    await expect(tokensFor(handle.db, ada)).rejects.toThrow(/does not let this client in/);
    await setOrganizationOAuthPolicy(handle.db, ada, { enabled: true, redirectHosts: null });
    const actions = (
      await listAuditEvents(handle.db, ada.orgId, { range: range(), kind: "oauth_grant" })
    ).map((event) => `${event.action} by ${event.actorEmail}`);
    expect(actions).toEqual(
      expect.arrayContaining([
        "oauth_grant.create by ada@example.com",
        "oauth_grant.update by ada@example.com",
        "oauth_grant.revoke by ada@example.com",
        "oauth_grant.refuse by ada@example.com",
      ]),
    );
  });

  it("keep their own sessions: another grant's token cannot use one", async () => {
    const first = await tokensFor(handle.db, ada);
    const second = await tokensFor(handle.db, ada);
    const initialize = (token: string) =>
      appFetch(`${APP}/api/mcp`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${token}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: {
            protocolVersion: "2025-11-25",
            capabilities: {},
            clientInfo: { name: "t", version: "1" },
          },
        }),
      });
    const opened = await initialize(first.access);
    const session = opened.headers.get("mcp-session-id") ?? "";
    expect(session).not.toBe("");
    const inSession = (token: string) =>
      appFetch(`${APP}/api/mcp`, {
        method: "DELETE",
        headers: { authorization: `Bearer ${token}`, "mcp-session-id": session },
      });
    expect((await inSession(second.access)).status).toBe(404);
    expect((await inSession(first.access)).status).toBe(200);
  });

  it("each have the rate limit of an API key, and are counted in the metrics by credential", async () => {
    const { access } = await tokensFor(handle.db, ada);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await listTools("/api/mcp", access)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const limited = await listTools("/api/mcp", access);
    expect(((await limited.json()) as { error: { message: string } }).error.message).toMatch(
      /reached for this authorized client/,
    );
    // Another client of the same person has its own.
    expect((await listTools("/api/mcp", (await tokensFor(handle.db, ada)).access)).status).toBe(200);
    const text = await (
      await metricsRoute(
        new Request("http://localhost/api/metrics", {
          headers: { authorization: `Bearer ${process.env.METRICS_TOKEN}` },
        }),
        { params: Promise.resolve({}) },
      )
    ).text();
    const samples = parseMetrics(text);
    expect(
      sum(samples, "switchboard_mcp_requests_total", { endpoint: "gateway", credential: "oauth" }),
    ).toBeGreaterThan(5);
    expect(sum(samples, "switchboard_rate_limited_requests_total", { limit: "oauth-grant" })).toBe(2);
    expect(
      sum(samples, "switchboard_oauth_tokens_issued_total", { grant_type: "authorization_code" }),
    ).toBeGreaterThan(0);
  });
});

/** Someone else's organization, with its owner. */
async function ownOrgOf(name: string): Promise<UserContext> {
  const [owner] = (await registerOwners(handle.db, name)) as [UserContext];
  return owner;
}
