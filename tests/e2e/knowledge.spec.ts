import { expect, test } from "./fixtures/signed-in";

test("the knowledge page counts, pages, sorts names naturally and searches as knowledge_search ranks", async ({
  page,
  signedIn: _,
}) => {
  await page.goto("/knowledge");
  const nodes = Array.from({ length: 30 }, (_, i) => ({
    name: `router-${i + 1}`,
    content: i === 6 ? "The seventh router forwards zebra traffic." : `Router number ${i + 1}.`,
  }));
  await page.getByLabel("Files").setInputFiles({
    name: "routers.json",
    mimeType: "application/json",
    buffer: Buffer.from(JSON.stringify(nodes)),
  });
  await page.getByRole("button", { name: "Import" }).click();
  await expect(page.getByRole("status").filter({ hasText: /30/ })).toBeVisible();

  await page.goto("/knowledge");
  await expect(page.getByTestId("knowledge-count")).toHaveText("30 nodes. Page 1 of 2.");
  const names = page.getByTestId("knowledge-row").locator("summary .font-medium");
  await expect(names).toHaveCount(25);
  // router-2 before router-10, as people count.
  await expect(names.nth(1)).toHaveText("router-2");
  await expect(names.nth(9)).toHaveText("router-10");
  await page.getByRole("link", { name: "Next page" }).click();
  await expect(page.getByTestId("knowledge-count")).toHaveText("30 nodes. Page 2 of 2.");
  await expect(names).toHaveCount(5);
  await expect(names.last()).toHaveText("router-30");

  await page.getByLabel("Search knowledge").fill("zebra");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByTestId("knowledge-count")).toHaveText('1 node matches "zebra", best first.');
  await expect(names).toHaveText(["router-7"]);
  await expect(page.getByTestId("knowledge-row").locator("mark")).toHaveText(/zebra/i);
});
