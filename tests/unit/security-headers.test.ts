import { getPathMatch } from "next/dist/shared/lib/router/utils/path-match";
import { afterEach, describe, expect, it, vi } from "vitest";
import nextConfig from "@/next.config";

/** The headers next.config.ts sets on a path, as Next.js matches its `source` patterns. */
async function headersFor(path: string): Promise<Record<string, string>> {
  const rules = (await nextConfig.headers?.()) ?? [];
  const matched = rules.filter((rule) => getPathMatch(rule.source)(path) !== false);
  return Object.fromEntries(
    matched.flatMap((rule) => rule.headers.map((h) => [h.key.toLowerCase(), h.value])),
  );
}

const directives = (policy: string) =>
  Object.fromEntries(
    policy.split(";").map((part) => {
      const [name = "", ...values] = part.trim().split(/\s+/);
      return [name, values];
    }),
  );

afterEach(() => vi.unstubAllEnvs());

describe("security headers", () => {
  it.each(["/", "/login", "/chat/123", "/admin/export", "/api/mcp", "/api/health"])(
    "forbid framing %s (frame-ancestors 'none' and X-Frame-Options: DENY)",
    async (path) => {
      const headers = await headersFor(path);
      expect(headers["x-frame-options"]).toBe("DENY");
      expect(directives(headers["content-security-policy"] ?? "")["frame-ancestors"]).toEqual(["'none'"]);
    },
  );

  // The policy Next.js pages run under in production: inline scripts and styles, no eval.
  it.each([
    ["default-src", ["'self'"]],
    ["script-src", ["'self'", "'unsafe-inline'"]],
    ["style-src", ["'self'", "'unsafe-inline'"]],
    ["img-src", ["'self'", "data:", "blob:"]],
    ["connect-src", ["'self'"]],
    ["object-src", ["'none'"]],
    ["base-uri", ["'self'"]],
    // Sign-in through an identity provider redirects a form to another origin; HTTP installs must keep working.
    ["form-action", undefined],
    ["upgrade-insecure-requests", undefined],
  ])("have a content security policy whose %s is %j in production", async (directive, values) => {
    vi.stubEnv("NODE_ENV", "production");
    const policy = directives((await headersFor("/"))["content-security-policy"] ?? "");
    expect(policy[directive]).toEqual(values);
  });

  it("allow eval under next dev only, where React rebuilds server stacks with it", async () => {
    vi.stubEnv("NODE_ENV", "development");
    const policy = directives((await headersFor("/"))["content-security-policy"] ?? "");
    expect(policy["script-src"]).toEqual(["'self'", "'unsafe-inline'", "'unsafe-eval'"]);
  });

  it("keep browsers from guessing content types", async () => {
    expect((await headersFor("/"))["x-content-type-options"]).toBe("nosniff");
  });
});
