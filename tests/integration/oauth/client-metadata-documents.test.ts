import { readFileSync } from "node:fs";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Agent, type Dispatcher, getGlobalDispatcher, setGlobalDispatcher } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db/client";
import type { UserContext } from "@/lib/auth/context";
import { fetchMetadataDocument } from "@/lib/oauth-server/client-metadata-document";
import { listOwnGrants } from "@/lib/oauth-server/grants";
import {
  type ClientMetadataServer,
  FIXTURE_CA_FILE,
  startClientMetadataServer,
} from "../../fixtures/oauth/client-metadata-server";
import { useDatabase } from "../gateway-client";
import { registerOwners } from "../org-users";
import { createTestDatabase } from "../test-db";
import { APP, appFetch } from "./app-fetch";
import { authorizationUrl, consentTo, MemoryOAuthProvider, pkce, REDIRECT_URI } from "./test-client";

let handle: DatabaseHandle & { db: DatabaseHandle["db"] };
let ada: UserContext;
let documents: ClientMetadataServer;
let previous: Dispatcher;

beforeAll(async () => {
  // What NODE_EXTRA_CA_CERTS does for a running app: this process trusts the fixture's certificate.
  previous = getGlobalDispatcher();
  setGlobalDispatcher(new Agent({ connect: { ca: readFileSync(FIXTURE_CA_FILE) } }));
  handle = await createTestDatabase();
  useDatabase(handle);
  [ada] = (await registerOwners(handle.db, "Ada")) as [UserContext];
  documents = await startClientMetadataServer({ redirectUris: [REDIRECT_URI] });
});

afterAll(async () => {
  setGlobalDispatcher(previous);
  await documents?.stop();
  useDatabase(undefined);
  await handle?.close();
});

const refusalOf = (url: string, allowPrivateNetworks = true) =>
  fetchMetadataDocument(url, { allowPrivateNetworks }).then(
    () => "fetched",
    (error: Error & { code?: string }) => `${error.code}: ${error.message}`,
  );

describe("a client identified by its Client ID Metadata Document", () => {
  it("connects with the MCP SDK's client, which uses the document's URL as its client_id", async () => {
    const provider = new MemoryOAuthProvider(REDIRECT_URI, { clientMetadataUrl: documents.clientId });
    const transport = new StreamableHTTPClientTransport(new URL(`${APP}/api/mcp`), {
      authProvider: provider,
      fetch: appFetch,
    });
    await expect(new Client({ name: "cimd", version: "1" }).connect(transport)).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    expect(provider.authorizationUrl?.searchParams.get("client_id")).toBe(documents.clientId);
    const back = await consentTo(handle.db, ada, provider.authorizationUrl ?? "");
    await transport.finishAuth(back.searchParams.get("code") ?? "");
    const client = new Client({ name: "cimd", version: "1" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${APP}/api/mcp`), {
        authProvider: provider,
        fetch: appFetch,
      }),
    );
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await client.close();
    const [grant] = await listOwnGrants(handle.db, ada);
    expect(grant?.client).toMatchObject({
      name: "Metadata Document Client",
      kind: "metadata_document",
      documentUrl: documents.clientId,
    });
  });

  it("is fetched once and kept for as long as its Cache-Control says", async () => {
    const before = documents.fetches.get("/client.json") ?? 0;
    const { challenge } = pkce();
    for (let i = 0; i < 3; i++) {
      const answer = await appFetch(authorizationUrl(documents.clientId, challenge).toString(), {
        redirect: "manual",
      });
      expect(answer.headers.get("location")).toMatch(/^\/oauth\/consent\?request=/);
    }
    expect(documents.fetches.get("/client.json") ?? 0).toBe(before);
  });

  it("is refused at a private address unless private networks are allowed, as integrations are", async () => {
    expect(await refusalOf(documents.clientId, false)).toMatch(
      /^invalid_client: .*cannot be fetched: Refused to connect to 127\.0\.0\.1: it resolves to the private or local address/,
    );
  });

  it.each([
    ["/too-big.json", /is larger than 64 KB/],
    ["/other-id.json", /does not name that URL as its client_id/],
    ["/with-secret.json", /carries a client secret/],
    ["/moved.json", /answered 302/],
    ["/missing.json", /answered 404/],
  ])("is refused when %s is not a document to trust", async (file, why) => {
    expect(await refusalOf(`${documents.origin}${file}`)).toMatch(why);
  });

  it("answers an authorization request with a document it refuses in JSON, without redirecting", async () => {
    const answer = await appFetch(
      authorizationUrl(`${documents.origin}/too-big.json`, pkce().challenge).toString(),
      {
        redirect: "manual",
      },
    );
    expect(answer.status).toBe(401);
    expect(await answer.json()).toMatchObject({ error: "invalid_client" });
  });
});
