import { modelAppPort } from "../../playwright.config";
import { type OAuthMcpServer, startOAuthMcpServer } from "../fixtures/mcp/oauth-server";
import { expect, test } from "./fixtures/signed-in";

// The app that may reach loopback addresses, where the test provider runs.
test.use({ baseURL: `http://127.0.0.1:${modelAppPort}` });

let provider: OAuthMcpServer;
test.beforeAll(async () => {
  provider = await startOAuthMcpServer({ consent: "page" });
});
test.afterAll(async () => {
  await provider?.close();
});

test("an admin connects an OAuth server through the provider's consent page, uses it, is refused, and disconnects", async ({
  page,
  signedIn: _,
}) => {
  await page.goto("/integrations/new");
  await page.getByTestId("catalog-custom").click();
  await page.getByLabel("Name").fill("Files");
  await page.getByLabel("URL").fill(provider.url);
  await page.getByLabel("Authentication").selectOption("oauth");
  await expect(page.getByLabel("Who connects")).toHaveValue("organization");
  await page.getByRole("button", { name: "Add integration" }).click();
  await expect(page).toHaveURL(/\/integrations\/[0-9a-f-]+/);

  const card = page.getByRole("region", { name: "OAuth connection" });
  await expect(card.getByTestId("oauth-status")).toHaveText("Not connected");
  await card.getByRole("button", { name: "Connect" }).click();

  // The provider's own page: the user consents there.
  await expect(page).toHaveTitle("Test provider: consent");
  await page.getByLabel("Account").fill("orla");
  await page.getByRole("button", { name: "Allow" }).click();

  await expect(card.getByRole("status")).toHaveText("Connected to Files. Its tools are listed below.");
  await expect(card.getByTestId("oauth-status")).toHaveText("Connected");
  await expect(page.getByTestId("tool-list")).toContainText("whoami");
  await page.getByLabel("Tool", { exact: true }).selectOption("whoami");
  await page.getByRole("button", { name: "Run tool" }).click();
  await expect(page.getByTestId("tool-result")).toHaveText(/You are orla\./);
  // The tokens stay on the server: nothing token-like in what the browser got.
  expect(await page.content()).not.toMatch(/\b(at|rt)-[A-Za-z0-9_-]{10,}/);
  await page.screenshot({ path: test.info().outputPath("oauth-connected.png"), fullPage: true });

  // Declining at the provider changes nothing.
  await card.getByRole("button", { name: "Reconnect" }).click();
  await expect(page).toHaveTitle("Test provider: consent");
  await page.getByRole("button", { name: "Deny" }).click();
  await expect(card.getByRole("alert")).toHaveText(
    "Files did not grant access (access_denied). Nothing was changed.",
  );
  await expect(card.getByTestId("oauth-status")).toHaveText("Connected");

  await card.getByRole("button", { name: "Disconnect" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Disconnect" }).click();
  await expect(card.getByTestId("oauth-status")).toHaveText("Not connected");
  await page.getByLabel("Tool", { exact: true }).selectOption("whoami");
  await page.getByRole("button", { name: "Run tool" }).click();
  await expect(page.getByTestId("tool-result")).toContainText(
    "Files is not connected yet: an admin connects it on its page under Integrations.",
  );
  await page.goto("/integrations");
  await expect(page.getByTestId("integration-row").filter({ hasText: "Files" })).toContainText(
    "Not connected",
  );
});
