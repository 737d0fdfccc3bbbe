import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { UserContext } from "@/lib/auth/context";
import { APP, appFetch, postForm } from "./app-fetch";
import { type OAuthTestApp, openOAuthTestApp } from "./oauth-app";
import { authorizationUrl, consentTo, pkce, REDIRECT_URI } from "./test-client";

process.env.OAUTH_REGISTRATIONS_PER_MINUTE = "3";

let app: OAuthTestApp;
let handle: OAuthTestApp["handle"];
let ada: UserContext;
let address = 0;

beforeAll(async () => {
  app = await openOAuthTestApp({ echo: false });
  ({ handle, ada } = app);
}, 60_000);

afterAll(async () => {
  await app?.close();
});

/** A registration request (RFC 7591) from an address of its own unless one is given. */
function register(body: unknown, { from = `203.0.113.${address++}`, type = "application/json" } = {}) {
  return appFetch(`${APP}/oauth/register`, {
    method: "POST",
    headers: { "content-type": type, "x-forwarded-for": from },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

const client = (extra: Record<string, unknown> = {}) => ({
  client_name: "Registered",
  redirect_uris: [REDIRECT_URI],
  ...extra,
});

describe("dynamic client registration", () => {
  it("registers a public client, answering 201 with its client_id and no secret", async () => {
    const answer = await register(
      client({ token_endpoint_auth_method: "none", grant_types: ["authorization_code", "refresh_token"] }),
    );
    expect(answer.status).toBe(201);
    expect(answer.headers.get("cache-control")).toContain("no-store");
    const body = (await answer.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      client_name: "Registered",
      redirect_uris: [REDIRECT_URI],
      token_endpoint_auth_method: "none",
    });
    expect(body.client_id).toMatch(/^sbo_client_/);
    expect(body.client_secret).toBeUndefined();
  });

  it("gives a confidential client a secret it must then present, by Basic or in the form", async () => {
    const body = (await (await register(client())).json()) as { client_id: string; client_secret: string };
    expect(body.client_secret).toMatch(/^sbo_cs_/);
    const exchange = async (headers: Record<string, string>, fields: Record<string, string>) => {
      const { verifier, challenge } = pkce();
      const back = await consentTo(handle.db, ada, authorizationUrl(body.client_id, challenge));
      return postForm(
        "/oauth/token",
        {
          grant_type: "authorization_code",
          code: back.searchParams.get("code") ?? "",
          redirect_uri: REDIRECT_URI,
          code_verifier: verifier,
          ...fields,
        },
        headers,
      );
    };
    const basic = (secret: string) =>
      `Basic ${Buffer.from(`${encodeURIComponent(body.client_id)}:${encodeURIComponent(secret)}`).toString("base64")}`;
    expect((await exchange({ authorization: basic(body.client_secret) }, {})).status).toBe(200);
    expect(
      (await exchange({}, { client_id: body.client_id, client_secret: body.client_secret })).status,
    ).toBe(200);
    const wrong = await exchange({ authorization: basic("sbo_cs_wrong") }, {});
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("www-authenticate")).toBe('Basic realm="switchboard"');
    expect(await wrong.json()).toMatchObject({
      error: "invalid_client",
      error_description: "The client secret is wrong.",
    });
    const without = await exchange({}, { client_id: body.client_id });
    expect(await without.json()).toMatchObject({
      error: "invalid_client",
      error_description: "Send the client secret.",
    });
  });

  it.each([
    [
      client({ redirect_uris: ["http://client.example/callback"] }),
      "invalid_redirect_uri",
      /must use https, or http on a loopback address/,
    ],
    [client({ redirect_uris: ["cursor://oauth/callback"] }), "invalid_redirect_uri", /must use https/],
    [client({ redirect_uris: ["https://client.example/callback#x"] }), "invalid_redirect_uri", /fragment/],
    [client({ redirect_uris: [] }), "invalid_client_metadata", /at least one redirect URI/],
    [client({ redirect_uris: "https://client.example" }), "invalid_client_metadata", /redirect_uris/],
    [client({ grant_types: ["client_credentials"] }), "invalid_client_metadata", /grant_types may only name/],
    [
      client({ token_endpoint_auth_method: "private_key_jwt" }),
      "invalid_client_metadata",
      /token_endpoint_auth_method/,
    ],
    [
      client({ logo_uri: "http://client.example/logo.png" }),
      "invalid_client_metadata",
      /logo_uri: must be an https URL/,
    ],
    [
      client({ client_name: "x".repeat(500) }),
      "invalid_client_metadata",
      /client_name: at most 200 characters/,
    ],
  ])("refuses metadata it cannot use, saying what (%#)", async (metadata, error, description) => {
    const answer = await register(metadata);
    expect(answer.status).toBe(400);
    const body = (await answer.json()) as { error: string; error_description: string };
    expect(body.error).toBe(error);
    expect(body.error_description).toMatch(description);
  });

  it("refuses a body that is not JSON, or not sent as JSON, with an OAuth error", async () => {
    const broken = await register("{not json");
    expect(broken.status).toBe(400);
    expect(await broken.json()).toMatchObject({ error: "invalid_request" });
    const form = await register("client_name=x", { type: "application/x-www-form-urlencoded" });
    expect(form.status).toBe(415);
    expect(await form.json()).toMatchObject({ error: "invalid_request" });
  });

  it("is limited per address (OAUTH_REGISTRATIONS_PER_MINUTE)", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++)
      statuses.push(
        (await register(client({ token_endpoint_auth_method: "none" }), { from: "192.0.2.7" })).status,
      );
    expect(statuses).toEqual([201, 201, 201, 429]);
    const limited = await register(client(), { from: "192.0.2.7" });
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(await limited.json()).toMatchObject({
      error: "too_many_requests",
      error_description: expect.stringMatching(/client registrations from this address/),
    });
    // Another address is not held back.
    expect(
      (await register(client({ token_endpoint_auth_method: "none" }), { from: "192.0.2.8" })).status,
    ).toBe(201);
  });
});
