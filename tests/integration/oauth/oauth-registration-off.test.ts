import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db/client";
import { useDatabase } from "../gateway-client";
import { createTestDatabase } from "../test-db";
import { APP, appFetch } from "./app-fetch";
import { REDIRECT_URI } from "./test-client";

process.env.OAUTH_DYNAMIC_REGISTRATION = "false";

let handle: DatabaseHandle & { db: DatabaseHandle["db"] };

beforeAll(async () => {
  handle = await createTestDatabase();
  useDatabase(handle);
});

afterAll(async () => {
  useDatabase(undefined);
  await handle?.close();
});

describe("with dynamic registration turned off (OAUTH_DYNAMIC_REGISTRATION=false)", () => {
  it("refuses registrations, and the metadata offers none", async () => {
    const answer = await appFetch(`${APP}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        client_name: "Late",
        redirect_uris: [REDIRECT_URI],
        token_endpoint_auth_method: "none",
      }),
    });
    expect(answer.status).toBe(403);
    expect(await answer.json()).toMatchObject({
      error: "access_denied",
      error_description: expect.stringMatching(/turned off.*Client ID Metadata Document/),
    });
    const metadata = (await (
      await appFetch(`${APP}/.well-known/oauth-authorization-server`)
    ).json()) as Record<string, unknown>;
    expect(metadata.registration_endpoint).toBeUndefined();
    expect(metadata.client_id_metadata_document_supported).toBe(true);
  });
});
