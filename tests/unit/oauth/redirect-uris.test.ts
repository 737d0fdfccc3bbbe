import { describe, expect, it } from "vitest";
import {
  isRegisteredRedirect,
  redirectHostAllowed,
  redirectUriProblem,
} from "@/lib/oauth-server/redirect-uris";

describe("redirect URIs a client may register", () => {
  it.each([
    "https://claude.ai/api/mcp/auth_callback",
    "https://chatgpt.com/connector_platform_oauth_redirect",
    "http://127.0.0.1:33418/callback",
    "http://127.0.0.1/callback",
    "http://localhost:6274/oauth/callback",
    "http://[::1]:8080/cb",
  ])("accepts %s", (uri) => {
    expect(redirectUriProblem(uri)).toBeUndefined();
  });

  it.each([
    ["http://client.example/callback", /https, or http on a loopback address/],
    ["cursor://anysphere.cursor-retrieval/oauth/callback", /https/],
    ["javascript:alert(1)", /https/],
    ["https://client.example/callback#frag", /fragment/],
    ["https://user:pass@client.example/callback", /credentials/],
    ["/relative/callback", /not an absolute URL/],
  ])("refuses %s", (uri, why) => {
    expect(redirectUriProblem(uri)).toMatch(why);
  });
});

describe("matching a requested redirect URI", () => {
  const registered = ["https://claude.ai/api/mcp/auth_callback", "http://127.0.0.1/callback"];

  it("takes the exact string", () => {
    expect(isRegisteredRedirect(registered, "https://claude.ai/api/mcp/auth_callback")).toBe(true);
    expect(isRegisteredRedirect(registered, "https://claude.ai/api/mcp/auth_callback/")).toBe(false);
    expect(isRegisteredRedirect(registered, "https://claude.ai/api/mcp/auth_callback?x=1")).toBe(false);
    expect(isRegisteredRedirect(registered, "https://CLAUDE.ai/api/mcp/auth_callback")).toBe(false);
  });

  it("lets a loopback redirect name any port (RFC 8252), nothing else", () => {
    expect(isRegisteredRedirect(registered, "http://127.0.0.1:51234/callback")).toBe(true);
    expect(isRegisteredRedirect(registered, "http://127.0.0.1:51234/other")).toBe(false);
    expect(isRegisteredRedirect(registered, "http://localhost:51234/callback")).toBe(false);
    expect(isRegisteredRedirect(registered, "https://claude.ai:8443/api/mcp/auth_callback")).toBe(false);
  });
});

describe("an organization's allowed redirect hosts", () => {
  it("allows any host when none are listed, else only those", () => {
    expect(redirectHostAllowed(null, "https://evil.example/cb")).toBe(true);
    expect(redirectHostAllowed(["claude.ai"], "https://claude.ai/api/mcp/auth_callback")).toBe(true);
    expect(redirectHostAllowed(["claude.ai"], "https://claude.ai.evil.example/cb")).toBe(false);
    expect(redirectHostAllowed(["::1"], "http://[::1]:3000/cb")).toBe(true);
  });
});
