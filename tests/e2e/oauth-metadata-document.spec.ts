import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { modelAppPort } from "../../playwright.config";
import {
  type ClientMetadataServer,
  startClientMetadataServer,
} from "../fixtures/oauth/client-metadata-server";
import { LoopbackRedirect, MemoryOAuthProvider } from "./fixtures/oauth-client";
import { expect, newAccount, test } from "./fixtures/signed-in";
import { ConsentPage } from "./pages/consent";

// The app that may reach loopback addresses (MCP_ALLOW_PRIVATE_NETWORKS) and trusts the documents' certificate
// (NODE_EXTRA_CA_CERTS), as a deployment trusts a real client's published document.
const appUrl = `http://127.0.0.1:${modelAppPort}`;
test.use({ baseURL: appUrl, account: newAccount("Cleo Cimd") });

let redirect: LoopbackRedirect;
let documents: ClientMetadataServer;
test.beforeAll(async () => {
  redirect = await new LoopbackRedirect().start();
  documents = await startClientMetadataServer({ redirectUris: ["http://127.0.0.1/callback"] });
});
test.afterAll(async () => {
  await redirect.stop();
  await documents.stop();
});

test("a client identified by its Client ID Metadata Document connects, and the consent page says who publishes it", async ({
  page,
  signedIn: _,
}) => {
  const gateway = new URL("/api/mcp", appUrl);
  const provider = new MemoryOAuthProvider(redirect.uri, { clientMetadataUrl: documents.clientId });
  const transport = new StreamableHTTPClientTransport(gateway, { authProvider: provider });
  await expect(new Client({ name: "e2e", version: "1" }).connect(transport)).rejects.toBeInstanceOf(
    UnauthorizedError,
  );
  // No registration: the SDK's client sends its document's URL as client_id, since the server supports them.
  expect(provider.authorizationUrl?.searchParams.get("client_id")).toBe(documents.clientId);
  const back = redirect.next();
  await page.goto(String(provider.authorizationUrl));
  const consent = new ConsentPage(page);
  // The name is the document's, not the one the client would have registered.
  await consent.shown("Metadata Document Client");
  await expect(page.getByText("Metadata document", { exact: true })).toBeVisible();
  await expect(page.getByText(new URL(documents.origin).host)).toBeVisible();
  await expect(page.getByText("This is a desktop app")).toBeVisible();
  await consent.allow();
  await transport.finishAuth((await back).searchParams.get("code") ?? "");
  const client = new Client({ name: "e2e", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(gateway, { authProvider: provider }));
  expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("node_knowledge_retriever");
  await client.close();
  expect(documents.fetches.get("/client.json")).toBe(1);
});
