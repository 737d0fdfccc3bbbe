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

  it("keeps chat files in the database unless the S3 store is configured whole, naming each missing variable", () => {
    expect(parseEnv({}).CHAT_FILE_S3_URL).toBeUndefined();
    expect(parseEnv({}).CHAT_FILE_S3_REGION).toBe("us-east-1");
    const whole = {
      CHAT_FILE_S3_URL: "https://s3.example.com/switchboard-files",
      CHAT_FILE_S3_ACCESS_KEY_ID: "AKIAEXAMPLE",
      CHAT_FILE_S3_SECRET_ACCESS_KEY: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
      CHAT_FILE_S3_REGION: "auto",
    };
    expect(parseEnv(whole)).toMatchObject(whole);
    const half = () =>
      parseEnv({ CHAT_FILE_S3_URL: whole.CHAT_FILE_S3_URL, CHAT_FILE_S3_ACCESS_KEY_ID: "AKIA" });
    expect(half).toThrow(
      "CHAT_FILE_S3_SECRET_ACCESS_KEY: required when any of CHAT_FILE_S3_URL, CHAT_FILE_S3_ACCESS_KEY_ID, CHAT_FILE_S3_SECRET_ACCESS_KEY is set",
    );
    expect(half).not.toThrow(/CHAT_FILE_S3_URL:/);
    const keysOnly = (() => {
      try {
        return parseEnv({ CHAT_FILE_S3_SECRET_ACCESS_KEY: whole.CHAT_FILE_S3_SECRET_ACCESS_KEY });
      } catch (error) {
        return error as EnvError;
      }
    })() as EnvError;
    expect(keysOnly.issues.map((issue) => issue.split(":")[0])).toEqual([
      "CHAT_FILE_S3_URL",
      "CHAT_FILE_S3_ACCESS_KEY_ID",
    ]);
    // The secret is never part of the message.
    expect(keysOnly.message).not.toContain(whole.CHAT_FILE_S3_SECRET_ACCESS_KEY);
  });

  it("takes the S3 store's endpoint and bucket as one path-style URL, without credentials", () => {
    const keys = { CHAT_FILE_S3_ACCESS_KEY_ID: "AKIA", CHAT_FILE_S3_SECRET_ACCESS_KEY: "secret" };
    expect(() => parseEnv({ ...keys, CHAT_FILE_S3_URL: "https://s3.example.com" })).toThrow(
      "CHAT_FILE_S3_URL: must name the bucket as the URL's path, like https://s3.example.com/switchboard-files",
    );
    expect(() => parseEnv({ ...keys, CHAT_FILE_S3_URL: "https://key:secret@s3.example.com/files" })).toThrow(
      "CHAT_FILE_S3_URL: must not carry credentials",
    );
    expect(() => parseEnv({ ...keys, CHAT_FILE_S3_URL: "https://s3.example.com/files?region=eu" })).toThrow(
      "CHAT_FILE_S3_URL: must be the endpoint and bucket only, with no ?query or #fragment",
    );
    expect(() => parseEnv({ ...keys, CHAT_FILE_S3_URL: "s3://files" })).toThrow(
      "CHAT_FILE_S3_URL: must be a URL starting with https:// or http://",
    );
    expect(() => parseEnv({ ...keys, CHAT_FILE_S3_URL: "not a url" })).toThrow(
      /CHAT_FILE_S3_URL: must be a URL/,
    );
    expect(
      parseEnv({ ...keys, CHAT_FILE_S3_URL: "http://127.0.0.1:9000/files/switchboard" }).CHAT_FILE_S3_URL,
    ).toBe("http://127.0.0.1:9000/files/switchboard");
  });

  it("reads boolean flags strictly", () => {
    expect(parseEnv({ ALLOW_REGISTRATION: "false" }).ALLOW_REGISTRATION).toBe(false);
    expect(() => parseEnv({ ALLOW_REGISTRATION: "nope" })).toThrow(/ALLOW_REGISTRATION/);
  });
});
