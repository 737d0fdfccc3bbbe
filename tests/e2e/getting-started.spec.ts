import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures/signed-in";
import { IntegrationsPage } from "./pages/integrations";

async function progress(page: Page) {
  await page.goto("/");
  return page.getByTestId("getting-started-count");
}

test("the Overview leads a new organization through its first hour, step by step, then steps aside", async ({
  page,
  baseURL,
  signedIn,
}) => {
  const checklist = page.getByTestId("getting-started");
  await expect(checklist.getByTestId("getting-started-count")).toHaveText("0 of 5 done");
  await checklist.getByRole("link", { name: "Connect an MCP server (not done yet)" }).click();
  await expect(page).toHaveURL(/\/integrations\/new$/);

  const integrations = new IntegrationsPage(page);
  await integrations.addFromCatalog("everything");
  // The new integration's page checks it on opening: its tools are known once that answers.
  await expect(integrations.testResult()).toHaveText(/Connected in \d+ ms/, { timeout: 30_000 });
  await expect(await progress(page)).toHaveText("1 of 5 done");
  await expect(checklist.getByRole("link", { name: "Connect an MCP server (done)" })).toBeVisible();

  await page.goto("/integrations");
  await page.getByTestId("integration-row").first().getByRole("link").first().click();
  await expect(await integrations.runTool("echo", { message: "first" })).toContainText("Echo: first");
  await expect(await progress(page)).toHaveText("2 of 5 done");

  await page.goto("/chat");
  await page.getByRole("button", { name: "New conversation" }).click();
  const input = page.getByLabel("Message", { exact: true });
  await input.fill("hello");
  await input.press("Enter");
  await expect(page.getByTestId("message-assistant")).toHaveCount(1);
  await expect(await progress(page)).toHaveText("3 of 5 done");

  await page.goto("/connect");
  await page.getByRole("button", { name: "Create key" }).click();
  const key = (await page.getByTestId("new-api-key").textContent())?.trim() ?? "";
  await expect(await progress(page)).toHaveText("4 of 5 done");

  // A client's first request with the key is the last step.
  const listed = await page.request.get(`${baseURL}/api/mcp/tools`, {
    headers: { authorization: `Bearer ${key}` },
  });
  expect(listed.ok()).toBe(true);
  await page.goto("/");
  await expect(page.getByTestId("page-title")).toHaveText(signedIn.organizationName);
  await expect(page.getByTestId("getting-started")).toHaveCount(0);
});
