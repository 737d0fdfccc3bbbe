import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Browser, Page } from "@playwright/test";
import { LoopbackRedirect, MemoryOAuthProvider } from "./fixtures/oauth-client";
import { type Account, expect, newAccount, test } from "./fixtures/signed-in";
import { ConsentPage } from "./pages/consent";
import { IntegrationsPage } from "./pages/integrations";

// One organization for the file, with the Everything server; its owner connects MCP clients by signing in.
const owner = newAccount("Olga Oauth");
test.use({ account: owner });

let redirect: LoopbackRedirect;
test.beforeAll(async () => {
  redirect = await new LoopbackRedirect().start();
});
test.afterAll(() => redirect.stop());

const textOf = (result: unknown) =>
  ((result as CallToolResult).content ?? []).map((part) => (part.type === "text" ? part.text : "")).join("");

/** A browser of its own, signed in to nothing, as the one a desktop client opens. */
async function freshTab(browser: Browser, baseURL: string | undefined): Promise<Page> {
  const context = await browser.newContext({ baseURL });
  return context.newPage();
}

/** Signs in on the sign-in page the consent step sends a person to. */
async function signInThere(tab: Page, account: Account) {
  await expect(tab).toHaveURL(/\/login\?callbackUrl=%2Foauth%2Fconsent/);
  await tab.getByLabel("Email").fill(account.email);
  await tab.getByLabel("Password").fill(account.password);
  await tab.getByRole("button", { name: "Sign in" }).click();
}

/**
 * What a desktop client does on its first connection: its request is refused with 401, it discovers the
 * authorization server, registers and opens the browser; the person signs in (when `account` is given) and allows
 * it; the browser comes back to its loopback redirect, and it exchanges the code. Answers the authorization
 * response the browser brought back.
 */
async function connectBySigningIn(
  tab: Page,
  url: URL,
  provider: MemoryOAuthProvider,
  { account, clientName = "Playwright MCP client" }: { account?: Account; clientName?: string } = {},
): Promise<URL> {
  const transport = new StreamableHTTPClientTransport(url, { authProvider: provider });
  await expect(new Client({ name: "e2e", version: "1.0.0" }).connect(transport)).rejects.toBeInstanceOf(
    UnauthorizedError,
  );
  const back = redirect.next();
  await tab.goto(String(provider.authorizationUrl));
  if (account) await signInThere(tab, account);
  const consent = new ConsentPage(tab);
  await consent.shown(clientName);
  await consent.allow();
  const response = await back;
  await tab.waitForURL(/^http:\/\/127\.0\.0\.1:\d+\/callback/);
  await transport.finishAuth(response.searchParams.get("code") ?? "");
  return response;
}

async function connected(url: URL, provider: MemoryOAuthProvider): Promise<Client> {
  const client = new Client({ name: "e2e", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
  return client;
}

/** RFC 7009 revocation, as a client disconnecting sends it. */
async function revoke(baseURL: string | undefined, provider: MemoryOAuthProvider, token: string) {
  const answer = await fetch(`${baseURL}/oauth/revoke`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ token, client_id: provider.client?.client_id ?? "" }),
  });
  expect(answer.status).toBe(200);
}

test.describe
  .serial("MCP clients that sign in with OAuth", () => {
    test("the MCP SDK's client: 401, registration, PKCE, sign-in and consent in the browser, tools, refresh, revocation", async ({
      page,
      signedIn: _,
      browser,
      baseURL,
    }) => {
      await new IntegrationsPage(page).addFromCatalog("everything");
      const gateway = new URL("/api/mcp", baseURL);
      const provider = new MemoryOAuthProvider(redirect.uri);
      const tab = await freshTab(browser, baseURL);

      const back = await connectBySigningIn(tab, gateway, provider, { account: owner });
      expect(provider.client?.client_id).toMatch(/^sbo_client_/);
      expect(back.searchParams.get("state")).toBe("e2e-state");
      expect(back.searchParams.get("iss")).toBe(baseURL);
      await expect(tab.getByText("You can close this window.")).toBeVisible();

      const client = await connected(gateway, provider);
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(["find_tools", "call_tool", "everything_echo"]));
      const echoed = await client.callTool({ name: "everything_echo", arguments: { message: "signed in" } });
      expect(textOf(echoed)).toBe("Echo: signed in");

      // The access token ends (revoked alone, as if it had expired): the client refreshes, and its refresh token rotates.
      const first = provider.saved;
      await revoke(baseURL, provider, first?.access_token ?? "");
      const again = await client.callTool({ name: "everything_echo", arguments: { message: "refreshed" } });
      expect(textOf(again)).toBe("Echo: refreshed");
      expect(provider.saved?.access_token).not.toBe(first?.access_token);
      expect(provider.saved?.refresh_token).not.toBe(first?.refresh_token);

      // Revoking the refresh token disconnects the client: its next call is refused, and so is its refresh.
      await revoke(baseURL, provider, provider.saved?.refresh_token ?? "");
      await expect(
        client.callTool({ name: "everything_echo", arguments: { message: "gone" } }),
      ).rejects.toThrow(/revoked|invalid_grant|401/i);
      await client.close().catch(() => {});
      await tab.context().close();
    });

    test("an integration passed through, with a token of its own, chosen by what the person allows", async ({
      page,
      signedIn: _,
      baseURL,
    }) => {
      const endpoint = new URL("/api/mcp/integrations/everything", baseURL);
      const provider = new MemoryOAuthProvider(redirect.uri);
      // Signed in already (this page): the browser goes straight to consent.
      await connectBySigningIn(page, endpoint, provider);
      expect(provider.authorizationUrl?.searchParams.get("resource")).toBe(endpoint.href);
      const client = await connected(endpoint, provider);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("echo");
      const echoed = await client.callTool({ name: "echo", arguments: { message: "passed through" } });
      expect(textOf(echoed)).toBe("Echo: passed through");
      await client.close();
      // Its token is for that endpoint alone.
      const other = await fetch(new URL("/api/mcp", baseURL), {
        method: "POST",
        headers: {
          authorization: `Bearer ${provider.saved?.access_token}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      });
      expect(other.status).toBe(401);
    });

    test("Connected apps lists what the person allowed, and Revoke disconnects the client at once", async ({
      page,
      signedIn: _,
      baseURL,
    }) => {
      const gateway = new URL("/api/mcp", baseURL);
      const provider = new MemoryOAuthProvider(redirect.uri, { name: "Revocable client" });
      const transport = new StreamableHTTPClientTransport(gateway, { authProvider: provider });
      await expect(new Client({ name: "e2e", version: "1" }).connect(transport)).rejects.toBeInstanceOf(
        UnauthorizedError,
      );
      const back = redirect.next();
      await page.goto(String(provider.authorizationUrl));
      const consent = new ConsentPage(page);
      await consent.shown("Revocable client");
      await consent.mayUse("Read-only knowledge (the built-in knowledge tools)");
      await consent.allow();
      await transport.finishAuth((await back).searchParams.get("code") ?? "");
      await page.waitForURL(/^http:\/\/127\.0\.0\.1:\d+\/callback/);
      const client = await connected(gateway, provider);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(
        expect.arrayContaining(["node_knowledge_retriever"]),
      );
      expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain("everything_echo");

      await page.goto("/settings/connected-apps");
      const row = page
        .getByRole("list", { name: "Your connected apps" })
        .getByTestId("grant-row")
        .filter({ hasText: "Revocable client" });
      await expect(row).toContainText(owner.organizationName);
      await expect(row.getByTestId("grant-scope")).toHaveText("Read-only knowledge");
      await expect(row).toContainText("last used");
      await row.getByRole("button", { name: "Revoke" }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Revoke" }).click();
      await expect(row).toHaveCount(0);
      await expect(client.listTools()).rejects.toThrow();
    });

    test("an owner turns OAuth clients off: the consent page says why, and nothing can be allowed", async ({
      page,
      signedIn: _,
      baseURL,
    }) => {
      await page.goto("/settings/connected-apps");
      const policy = page.getByRole("form", { name: "OAuth clients" });
      await policy.getByLabel("Members may connect apps by signing in").uncheck();
      await policy.getByRole("button", { name: "Save" }).click();
      await expect(policy.getByRole("status")).toContainText("Saved.");

      const provider = new MemoryOAuthProvider(redirect.uri, { name: "Turned away" });
      const transport = new StreamableHTTPClientTransport(new URL("/api/mcp", baseURL), {
        authProvider: provider,
      });
      await expect(new Client({ name: "e2e", version: "1" }).connect(transport)).rejects.toBeInstanceOf(
        UnauthorizedError,
      );
      await page.goto(String(provider.authorizationUrl));
      await new ConsentPage(page).shown("Turned away");
      await expect(page.getByText("Its owners and admins turned OAuth clients off.")).toBeVisible();
      await expect(page.getByRole("button", { name: "Allow" })).toBeDisabled();
      // Deny still answers the client.
      const back = redirect.next();
      await new ConsentPage(page).deny();
      expect((await back).searchParams.get("error")).toBe("access_denied");
      await page.waitForURL(/^http:\/\/127\.0\.0\.1:\d+\/callback/);

      await page.goto("/settings/connected-apps");
      await policy.getByLabel("Members may connect apps by signing in").check();
      await policy.getByRole("button", { name: "Save" }).click();
      await expect(policy.getByRole("status")).toContainText("Saved.");
    });
  });

test("the sign-in redirects never take the app's address from Host or X-Forwarded-Host", async ({
  request,
  baseURL,
}) => {
  const spoofs: Record<string, string>[] = [
    { "x-forwarded-host": "evil.example" },
    { "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" },
  ];
  for (const headers of spoofs) {
    const answer = await request.get("/api/auth/signin", { headers, maxRedirects: 0 });
    expect(answer.status()).toBe(302);
    const location = answer.headers().location ?? "";
    expect(location).not.toContain("evil");
    expect(decodeURIComponent(location)).toContain(`callbackUrl=${baseURL}`);
  }
  const metadata = await request.get("/.well-known/oauth-authorization-server", {
    headers: { "x-forwarded-host": "evil.example" },
  });
  expect((await metadata.json()).issuer).toBe(baseURL);
});

test("the 2025-03-26 default endpoints reach the authorization server; the sign-up page stays a page", async ({
  request,
  page,
}) => {
  const registered = await request.post("/register", {
    data: {
      client_name: "Old client",
      redirect_uris: ["http://127.0.0.1/callback"],
      token_endpoint_auth_method: "none",
    },
    headers: { "x-forwarded-for": "198.20.0.1" },
  });
  expect(registered.status()).toBe(201);
  expect((await registered.json()).client_id).toMatch(/^sbo_client_/);
  const token = await request.post("/token", { form: { grant_type: "authorization_code" } });
  expect(token.status()).toBe(401);
  expect(await token.json()).toMatchObject({ error: "invalid_client" });
  const authorize = await request.get("/authorize?client_id=unknown", { maxRedirects: 0 });
  expect(authorize.status()).toBe(401);
  expect(await authorize.json()).toMatchObject({ error: "invalid_client" });
  await page.goto("/register");
  await expect(page.getByRole("button", { name: "Create account" })).toBeVisible();
});
