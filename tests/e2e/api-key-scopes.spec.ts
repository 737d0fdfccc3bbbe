import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures/signed-in";
import { IntegrationsPage } from "./pages/integrations";

const toolNames = async (page: Page, key: string) => {
  const response = await page.request.get("/api/mcp/tools", { headers: { Authorization: `Bearer ${key}` } });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { tools: { name: string }[] }).tools.map((tool) => tool.name);
};

test("an admin makes an expiring read-only knowledge key and a key for one integration, and each sees only its tools", async ({
  page,
  createApiKey,
}) => {
  await new IntegrationsPage(page).addFromCatalog("everything");

  const knowledge = await createApiKey("Wiki bot", async () => {
    await page.getByLabel("Expires").selectOption("30");
    await page.getByLabel("May use").selectOption("knowledge");
  });
  const wiki = page.getByTestId("api-key-row").filter({ hasText: "Wiki bot" });
  await page.reload();
  await expect(wiki.getByTestId("api-key-scope")).toHaveText("Read-only knowledge");
  await expect(wiki.getByTestId("api-key-expiry")).toHaveText("Expires in 30 days");
  expect((await toolNames(page, knowledge)).sort()).toEqual(["knowledge_search", "node_knowledge_retriever"]);

  const scoped = await createApiKey("Echo only", async () => {
    await page.getByLabel("Expires").selectOption("date");
    await page
      .getByLabel("Expiry date")
      .fill(new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10));
    await page.getByLabel("May use").selectOption("chosen");
    const scope = page.getByTestId("key-scope");
    await scope.getByRole("group", { name: "Integrations" }).getByLabel("Only these").check();
    await scope.getByRole("checkbox", { name: "Everything" }).check();
    await scope.getByLabel("Built-in knowledge tools").uncheck();
  });
  await page.reload();
  const echo = page.getByTestId("api-key-row").filter({ hasText: "Echo only" });
  await expect(echo.getByTestId("api-key-scope")).toHaveText(
    "Integration Everything · all capabilities · no built-in tools",
  );
  await expect(echo.getByTestId("api-key-expiry")).toHaveText(/^Expires in (7|8) days$/);
  const names = await toolNames(page, scoped);
  expect(names).toContain("everything_echo");
  expect(names).not.toContain("node_knowledge_retriever");
});
