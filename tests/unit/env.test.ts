import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "@/lib/env";

describe("parseEnv", () => {
  it("applies the embedded defaults when nothing is set", () => {
    const env = parseEnv({});
    expect(env).toMatchObject({
      PORT: 3000,
      DATA_DIR: ".data",
      CHAT_MODEL: "gpt-4o-mini",
      LOG_LEVEL: "info",
    });
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.ALLOW_REGISTRATION).toBe(true);
  });

  // By default in development and tests only, and as the operator says otherwise.
  it.each([
    ["offers", "when nothing is set", {}],
    ["offers", "in tests", { NODE_ENV: "test" }],
    ["does not offer", "in production", { NODE_ENV: "production" }],
    ["does not offer", "in production when set blank", { NODE_ENV: "production", MCP_DEMO_SERVERS: " " }],
    ["offers", "in production when set to true", { NODE_ENV: "production", MCP_DEMO_SERVERS: "true" }],
    ["does not offer", "in development when set to 0", { NODE_ENV: "development", MCP_DEMO_SERVERS: "0" }],
  ])("%s demo servers %s", (offers, _when, env) => {
    expect(parseEnv(env).MCP_DEMO_SERVERS).toBe(offers === "offers");
  });

  it("refuses a demo servers setting that is not a boolean", () => {
    expect(() => parseEnv({ MCP_DEMO_SERVERS: "yes" })).toThrow(/MCP_DEMO_SERVERS/);
  });

  it("treats empty values as unset", () => {
    expect(parseEnv({ DATABASE_URL: "", PORT: " " })).toMatchObject({ DATABASE_URL: undefined, PORT: 3000 });
  });

  it("names every bad variable in one error", () => {
    const error = (() => {
      try {
        parseEnv({ DATABASE_URL: "mysql://x", PORT: "eighty", AUTH_SECRET: "short", LOG_LEVEL: "loud" });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(EnvError);
    const message = (error as EnvError).message;
    for (const name of ["DATABASE_URL", "PORT", "AUTH_SECRET", "LOG_LEVEL"]) expect(message).toContain(name);
  });

  it("requires OAuth client ids and secrets in pairs, and an issuer for OIDC", () => {
    expect(() => parseEnv({ AUTH_GITHUB_ID: "id" })).toThrow(/AUTH_GITHUB_ID and AUTH_GITHUB_SECRET/);
    expect(() => parseEnv({ AUTH_OIDC_ID: "id", AUTH_OIDC_SECRET: "s" })).toThrow(/AUTH_OIDC_ISSUER/);
    expect(parseEnv({ AUTH_GITHUB_ID: "id", AUTH_GITHUB_SECRET: "s" }).AUTH_GITHUB_ID).toBe("id");
  });

  it("reads the invitation settings: a whole number of hours, an smtp: or smtps: URL, and a sender", () => {
    const defaults = parseEnv({});
    expect(defaults).toMatchObject({
      INVITATION_TTL_HOURS: 168,
      SMTP_FROM: "Switchboard <no-reply@localhost>",
    });
    expect(defaults.SMTP_URL).toBeUndefined();
    expect(
      parseEnv({
        INVITATION_TTL_HOURS: "48",
        SMTP_URL: "smtps://user:secret@mail.example.com:465",
        SMTP_FROM: "Acme <ops@acme.test>",
      }),
    ).toMatchObject({
      INVITATION_TTL_HOURS: 48,
      SMTP_URL: "smtps://user:secret@mail.example.com:465",
      SMTP_FROM: "Acme <ops@acme.test>",
    });
    expect(() => parseEnv({ INVITATION_TTL_HOURS: "1.5" })).toThrow(
      "INVITATION_TTL_HOURS: must be a whole number of hours",
    );
    expect(() => parseEnv({ SMTP_URL: "https://mail.example.com" })).toThrow(
      "SMTP_URL: must be a URL starting with smtp:// or smtps://",
    );
  });

  it("reads boolean flags strictly", () => {
    expect(parseEnv({ ALLOW_REGISTRATION: "false" }).ALLOW_REGISTRATION).toBe(false);
    expect(() => parseEnv({ ALLOW_REGISTRATION: "nope" })).toThrow(/ALLOW_REGISTRATION/);
  });
});
