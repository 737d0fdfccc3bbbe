import { describe, expect, it } from "vitest";
import { challengeOf } from "@/lib/mcp/oauth/authorization";
import { openLoopbackRedirect, responseFromRedirect } from "@/lib/mcp/oauth/loopback-redirect";

describe("the authorization redirect", () => {
  it("yields the code only for the state it was started with", () => {
    const back = new URL("http://127.0.0.1:5000/callback?code=abc&state=s1");
    expect(responseFromRedirect(back, "s1")).toEqual({ code: "abc", iss: undefined });
    expect(() => responseFromRedirect(back, "s2")).toThrow(/different state/);
    const named = new URL("http://127.0.0.1:5000/callback?code=abc&state=s1&iss=https%3A%2F%2Fas.example");
    expect(responseFromRedirect(named, "s1")).toEqual({ code: "abc", iss: "https://as.example" });
    expect(() =>
      responseFromRedirect(
        new URL("http://x/callback?error=access_denied&error_description=No&state=s1"),
        "s1",
      ),
    ).toThrow("The authorization was not granted: access_denied (No).");
  });

  it("receives the browser's redirect on a loopback port", async () => {
    const loopback = await openLoopbackRedirect();
    try {
      expect(loopback.redirectUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
      const arrived = loopback.waitForRedirect(5000);
      const response = await fetch(`${loopback.redirectUrl}?code=c&state=s`);
      expect(await response.text()).toMatch(/Authorization received/);
      expect((await arrived).searchParams.get("code")).toBe("c");
    } finally {
      await loopback.close();
    }
  });
});

describe("challengeOf", () => {
  const respond = (status: number, header: string) =>
    new Response(null, { status, headers: { "www-authenticate": header } });

  it("reads the resource metadata and scope of a 401, and of a 403 only for insufficient scope", () => {
    const challenge = challengeOf(
      respond(
        401,
        'Bearer resource_metadata="https://mcp.example/.well-known/oauth-protected-resource", scope="a b"',
      ),
    );
    expect(challenge?.resourceMetadataUrl?.href).toBe(
      "https://mcp.example/.well-known/oauth-protected-resource",
    );
    expect(challenge?.scope).toBe("a b");
    expect(challengeOf(respond(403, 'Bearer error="insufficient_scope", scope="a b c"'))?.scope).toBe(
      "a b c",
    );
    expect(challengeOf(respond(403, 'Bearer error="invalid_token"'))).toBeUndefined();
    expect(challengeOf(new Response(null, { status: 200 }))).toBeUndefined();
  });
});
