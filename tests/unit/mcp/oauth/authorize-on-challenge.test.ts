import { describe, expect, it } from "vitest";
import type { AuthChallenge } from "@/lib/mcp/oauth/authorization";
import { authorizeOnChallenge } from "@/lib/mcp/oauth/authorize-on-challenge";

const challenge = (status: 401 | 403, scope: string) =>
  new Response(null, {
    status,
    headers: {
      "www-authenticate": `Bearer error="${status === 401 ? "invalid_token" : "insufficient_scope"}", scope="${scope}"`,
    },
  });

describe("authorizeOnChallenge", () => {
  it("asks a step-up grant for the earlier scopes as well as the challenge's, and repeats the request", async () => {
    const answers = [challenge(401, "read"), challenge(403, "write"), new Response("ok")];
    const asked: (string | undefined)[] = [];
    const sentTokens: (string | null)[] = [];
    let token: string | undefined;
    const fetchWithAuth = authorizeOnChallenge(
      (async (_input: string | URL | Request, init?: RequestInit) => {
        sentTokens.push(new Headers(init?.headers).get("authorization"));
        return answers.shift() as Response;
      }) as typeof fetch,
      {
        accessToken: async () => token,
        authorize: async ({ scope }: AuthChallenge) => {
          asked.push(scope);
          token = `token-${asked.length}`;
        },
      },
    );
    const response = await fetchWithAuth("https://mcp.example.com/mcp");
    expect(await response.text()).toBe("ok");
    expect(asked).toEqual(["read", "read write"]);
    expect(sentTokens).toEqual([null, "Bearer token-1", "Bearer token-2"]);
  });
});
