import { beforeEach, describe, expect, it, vi } from "vitest";
import { type Env, parseEnv } from "@/lib/env";

const env = vi.hoisted(() => ({ current: undefined as Env | undefined }));
vi.mock("@/lib/env", async (importOriginal) => {
  const actual = await importOriginal<typeof import("@/lib/env")>();
  return { ...actual, getEnv: () => env.current ?? actual.parseEnv({}) };
});
// Without an API key the document describes the built-ins; nobody is signed in.
vi.mock("@/lib/auth/request-context", () => ({ getUserContext: async () => null }));
vi.mock("next/headers", () => ({ headers: async () => new Headers() }));

const { GET } = await import("@/app/api/openapi.json/route");

async function serverUrl(headers: Record<string, string>) {
  const response = await GET(new Request("http://localhost:3000/api/openapi.json", { headers }), {
    params: Promise.resolve({}),
  });
  expect(response.status).toBe(200);
  const document = (await response.json()) as { servers: { url: string }[] };
  return document.servers.map((server) => server.url);
}

describe("the OpenAPI document's server", () => {
  beforeEach(() => {
    env.current = undefined;
  });

  it("is AUTH_URL when set, whatever the request's headers say", async () => {
    env.current = parseEnv({ AUTH_URL: "https://switchboard.example.com/app", PORT: "3100" });
    expect(
      await serverUrl({
        host: "evil.example",
        "x-forwarded-host": "evil.example",
        "x-forwarded-proto": "http",
      }),
    ).toEqual(["https://switchboard.example.com"]);
  });

  it("is the origin a declared proxy forwards (AUTH_TRUST_HOST), else never a host a client names", async () => {
    const forwarded = {
      host: "10.0.0.5:3000",
      "x-forwarded-host": "mcp.example.com",
      "x-forwarded-proto": "https",
    };
    env.current = parseEnv({ AUTH_TRUST_HOST: "true", PORT: "3100" });
    expect(await serverUrl(forwarded)).toEqual(["https://mcp.example.com"]);
    env.current = parseEnv({ PORT: "3100" });
    expect(await serverUrl(forwarded)).toEqual(["http://localhost:3100"]);
  });

  it("is the loopback address a local client used", async () => {
    env.current = parseEnv({ PORT: "3100" });
    expect(await serverUrl({ host: "127.0.0.1:3700" })).toEqual(["http://127.0.0.1:3700"]);
  });
});
