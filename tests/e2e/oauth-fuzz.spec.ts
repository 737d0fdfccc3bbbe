import { expect, test } from "@playwright/test";

// Every path of the authorization server and every /.well-known path, against the app as deployed (Next.js's own
// pages and errors included): malformed input of every kind gets a JSON answer with a 4xx, never a 500 or HTML.

// A small deterministic generator, so a failure can be replayed.
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const nasty = [
  "",
  "x".repeat(9000),
  "\u0000",
  "%00",
  "%zz",
  "<script>alert(1)</script>",
  "../../etc/passwd",
  "https://attacker.example/cb",
  "http://127.0.0.1:1/callback",
  "javascript:alert(1)",
  "S256",
  "plain",
  "code",
  "token",
  "sbo_at_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
  "sbo_rt_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
  "https://127.0.0.1/client.json",
  "https://169.254.169.254/latest",
  "😀",
  "a b c",
];
// What a header can carry (printable ASCII), for Authorization values.
const headerSafe = nasty.filter((value) => /^[\x20-\x7e]{0,200}$/.test(value));
const names = [
  "response_type",
  "client_id",
  "redirect_uri",
  "code_challenge",
  "code_challenge_method",
  "state",
  "scope",
  "resource",
  "grant_type",
  "code",
  "code_verifier",
  "refresh_token",
  "token",
  "token_type_hint",
  "client_secret",
];
const jsonBodies: unknown[] = [
  null,
  [],
  42,
  "text",
  {},
  { redirect_uris: "https://x.example" },
  { redirect_uris: [42] },
  { redirect_uris: ["https://x.example/cb"], token_endpoint_auth_method: { a: 1 } },
  { redirect_uris: ["https://x.example/cb"], client_name: ["x"] },
  { redirect_uris: ["https://x.example/cb"], grant_types: "authorization_code" },
  { __proto__: { polluted: true }, redirect_uris: ["https://x.example/cb"] },
  { redirect_uris: Array.from({ length: 50 }, (_, i) => `https://x.example/${i}`) },
];

const paths = [
  "/oauth/authorize",
  "/oauth/token",
  "/oauth/register",
  "/oauth/revoke",
  "/oauth/unknown",
  "/authorize",
  "/token",
  "/oauth/authorize/extra",
  "/.well-known/oauth-authorization-server",
  "/.well-known/oauth-authorization-server/api/mcp",
  "/.well-known/openid-configuration",
  "/.well-known/oauth-protected-resource",
  "/.well-known/oauth-protected-resource/api/mcp",
  "/.well-known/oauth-protected-resource/api/mcp/integrations/x",
  "/.well-known/oauth-protected-resource/nothing",
  "/.well-known/security.txt",
  "/.well-known/acme-challenge/x",
];
const methods = ["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"] as const;

test("malformed requests to every OAuth and well-known path get JSON with a 4xx, never a 500 or HTML", async ({
  request,
}) => {
  test.setTimeout(240_000);
  const next = random(29);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] as T;
  const params = () => {
    const form = new URLSearchParams();
    const count = Math.floor(next() * 8);
    for (let i = 0; i < count; i++) form.append(pick(names), pick(nasty));
    return form;
  };
  const statuses = new Map<number, number>();
  for (let i = 0; i < 600; i++) {
    // Most requests go to the four protocol endpoints; the rest probe the other paths.
    const path = next() < 0.7 ? pick(paths.slice(0, 4)) : pick(paths);
    const method =
      i % 5 === 0 ? pick(methods) : path.includes("register") ? "POST" : pick(["GET", "POST"] as const);
    const query = next() < 0.5 ? `?${params()}` : "";
    const kind = Math.floor(next() * 4);
    // An address of its own per request, so registrations here never use up the limit other tests register under.
    const headers: Record<string, string> = { "x-forwarded-for": `198.18.${i >> 8}.${i & 255}` };
    let data: string | Buffer | undefined;
    if (method !== "GET" && method !== "HEAD") {
      if (kind === 0) {
        headers["content-type"] = "application/x-www-form-urlencoded";
        data = params().toString();
      } else if (kind === 1) {
        headers["content-type"] = "application/json";
        data = JSON.stringify(pick(jsonBodies));
      } else if (kind === 2) {
        headers["content-type"] = pick([
          "text/plain",
          "application/json",
          "application/x-www-form-urlencoded",
        ]);
        data = Buffer.from(Array.from({ length: Math.floor(next() * 200) }, () => Math.floor(next() * 256)));
      }
    }
    if (next() < 0.2)
      headers.authorization = pick(["Basic !!!", "Basic Zm9v", `Bearer ${pick(headerSafe)}`, "Digest x"]);
    const response = await request.fetch(`${path}${query}`, { method, headers, data, maxRedirects: 0 });
    const status = response.status();
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
    const where = `${method} ${path}${query.slice(0, 200)} [${kind}]`;
    expect(status, where).toBeLessThan(500);
    const type = response.headers()["content-type"] ?? "";
    expect(type, where).not.toContain("text/html");
    if (method === "HEAD" || status === 204 || (status >= 300 && status < 400)) continue;
    // A request line over Node's limit (16 KB) is refused by its HTTP parser before the app sees it, without a body.
    if (status === 431) continue;
    // The revocation endpoint answers a success with an empty body (RFC 7009); everything else is JSON.
    if (path === "/oauth/revoke" && status === 200) continue;
    expect(type, where).toMatch(/^application\/json/);
    const body = (await response.json()) as Record<string, unknown>;
    if (status >= 400) {
      expect(typeof body.error, where).toBe("string");
      expect(typeof body.error_description, where).toBe("string");
    }
  }
  console.log(
    `[oauth fuzz] statuses: ${[...statuses]
      .sort()
      .map(([s, n]) => `${s}×${n}`)
      .join(", ")}`,
  );
  // Malformed input is refused in many ways; a good share are plain 400s.
  expect(statuses.get(400) ?? 0).toBeGreaterThan(150);
});
