import { describe, expect, it } from "vitest";
import { withOAuthBearer } from "@/lib/mcp/oauth/bearer-fetch";
import type { OAuthTokenSet } from "@/lib/mcp/oauth/token-set";
import {
  OAuthTokenSource,
  type OAuthTokenVault,
  type RefreshGrant,
  type RefreshOutcome,
} from "@/lib/mcp/oauth/token-source";

class Revoked extends Error {}

/** Tokens held in memory, as a vault; a refresh outcome is kept the way the database vault keeps it. */
class MemoryVault implements OAuthTokenVault {
  readonly key = `test-${Math.random()}`;
  constructor(private current: OAuthTokenSet | undefined) {}
  async read() {
    return this.current;
  }
  async refreshLocked(refresh: (current: OAuthTokenSet | undefined) => Promise<RefreshOutcome>) {
    const outcome = await refresh(this.current);
    if (outcome.kind === "refreshed") this.current = outcome.tokens;
    if (outcome.kind === "revoked") this.current = undefined;
    return outcome;
  }
}

/** A vault holding tokens, and a grant that counts its calls and can be made to refuse. */
function setup(initial: OAuthTokenSet, delayMs = 0) {
  const connection = new MemoryVault(initial);
  const used: string[] = [];
  let refuse = false;
  const grant: RefreshGrant = async (refreshToken) => {
    used.push(refreshToken);
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    if (refuse) throw new Revoked("invalid_grant");
    const n = used.length;
    return { accessToken: `access-${n}`, refreshToken: `refresh-${n}`, expiresAt: Date.now() + 3_600_000 };
  };
  const source = new OAuthTokenSource(connection, grant, {
    notConnected: () => new Error("not connected"),
    reconnect: (reason) => new Error(`reconnect: ${reason}`),
    isRevocation: (error) => error instanceof Revoked,
  });
  return {
    connection,
    source,
    used,
    refuse: () => {
      refuse = true;
    },
  };
}

describe("OAuthTokenSource", () => {
  it("hands out the stored token while it is valid, and refreshes one that expires within a minute", async () => {
    const fresh = setup({ accessToken: "a0", refreshToken: "r0", expiresAt: Date.now() + 600_000 });
    expect(await fresh.source.accessToken()).toBe("a0");
    expect(fresh.used).toEqual([]);
    const expiring = setup({ accessToken: "a0", refreshToken: "r0", expiresAt: Date.now() + 30_000 });
    expect(await expiring.source.accessToken()).toBe("access-1");
    expect(expiring.used).toEqual(["r0"]);
    expect(await expiring.source.accessToken()).toBe("access-1");
  });

  it("refreshes once for concurrent callers, and uses each rotated refresh token once", async () => {
    const { source, used } = setup({ accessToken: "a0", refreshToken: "r0" }, 50);
    const tokens = await Promise.all(Array.from({ length: 8 }, () => source.afterRejection("a0")));
    expect(new Set(tokens)).toEqual(new Set(["access-1"]));
    expect(used).toEqual(["r0"]);
    // A caller still holding the old token gets the new one without another refresh.
    expect(await source.afterRejection("a0")).toBe("access-1");
    expect(await source.afterRejection("access-1")).toBe("access-2");
    expect(used).toEqual(["r0", "refresh-1"]);
  });

  it("asks for reconnecting when the refresh is refused or there is no refresh token", async () => {
    const refused = setup({ accessToken: "a0", refreshToken: "r0" });
    refused.refuse();
    await expect(refused.source.afterRejection("a0")).rejects.toThrow(
      /^reconnect: the authorization server refused/,
    );
    await expect(refused.source.accessToken()).rejects.toThrow("not connected");
    const noRefresh = setup({ accessToken: "a0", expiresAt: Date.now() + 1000 });
    await expect(noRefresh.source.accessToken()).rejects.toThrow(/reconnect: its access token expired/);
  });

  it("passes other refresh failures on, keeping the tokens for a later try", async () => {
    const { connection, source } = setup({ accessToken: "a0", refreshToken: "r0" });
    const failing = new OAuthTokenSource(connection, async () => Promise.reject(new Error("down")), {
      notConnected: () => new Error("not connected"),
      reconnect: (reason) => new Error(reason),
      isRevocation: () => false,
    });
    await expect(failing.afterRejection("a0")).rejects.toThrow("down");
    expect(await source.accessToken()).toBe("a0");
  });
});

describe("withOAuthBearer", () => {
  it("sends the token, refreshes on a 401 and repeats the request once", async () => {
    const { source } = setup({ accessToken: "a0", refreshToken: "r0" });
    const seen: string[] = [];
    const server = async (_input: string | URL | Request, init?: RequestInit) => {
      const auth = new Headers(init?.headers).get("authorization") ?? "";
      seen.push(auth);
      return new Response(auth === "Bearer a0" ? "expired" : "ok", {
        status: auth === "Bearer a0" ? 401 : 200,
      });
    };
    const response = await withOAuthBearer(server as typeof fetch, source)("https://mcp.example/mcp", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(response.status).toBe(200);
    expect(seen).toEqual(["Bearer a0", "Bearer access-1"]);
  });

  it("gives up with reconnect when the server refuses the refreshed token as well", async () => {
    const { source } = setup({ accessToken: "a0", refreshToken: "r0" });
    const server = async () => new Response("no", { status: 401 });
    await expect(withOAuthBearer(server as typeof fetch, source)("https://mcp.example/mcp")).rejects.toThrow(
      /reconnect: the server refuses its access token even after a refresh/,
    );
  });
});
