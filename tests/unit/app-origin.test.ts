import { describe, expect, it, vi } from "vitest";
import { parseEnv } from "@/lib/env";

vi.mock("next/headers", () => ({ headers: async () => new Headers() }));

const { trustedOrigin } = await import("@/lib/http/app-origin");

const headers = (values: Record<string, string>) => new Headers(values);

describe("the app's trusted origin", () => {
  it("is AUTH_URL when set, whatever the request says", () => {
    const env = parseEnv({ AUTH_URL: "https://switchboard.example.com/ignored/path" });
    expect(trustedOrigin(headers({ host: "evil.example", "x-forwarded-host": "evil.example" }), env)).toBe(
      "https://switchboard.example.com",
    );
  });

  it("never takes a Host or X-Forwarded-Host a client sends, without a declared proxy", () => {
    const env = parseEnv({ PORT: "3100" });
    expect(trustedOrigin(headers({ host: "evil.example" }), env)).toBe("http://localhost:3100");
    expect(trustedOrigin(headers({ host: "localhost:3100", "x-forwarded-host": "evil.example" }), env)).toBe(
      "http://localhost:3100",
    );
  });

  it("takes a loopback Host as it is, so a local browser stays on its address", () => {
    const env = parseEnv({});
    expect(trustedOrigin(headers({ host: "127.0.0.1:3200" }), env)).toBe("http://127.0.0.1:3200");
    expect(trustedOrigin(headers({ host: "[::1]:3000" }), env)).toBe("http://[::1]:3000");
    expect(trustedOrigin(headers({ host: "localhost.evil.example" }), env)).toBe("http://localhost:3000");
  });

  it("believes the forwarded host and scheme behind a proxy the operator declares (AUTH_TRUST_HOST)", () => {
    const env = parseEnv({ AUTH_TRUST_HOST: "true" });
    expect(
      trustedOrigin(
        headers({
          host: "10.0.0.5:3000",
          "x-forwarded-host": "mcp.example.com, proxy",
          "x-forwarded-proto": "https",
        }),
        env,
      ),
    ).toBe("https://mcp.example.com");
    expect(trustedOrigin(headers({ host: "mcp.example.com" }), env)).toBe("https://mcp.example.com");
  });
});
