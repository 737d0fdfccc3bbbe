import { expect, test } from "./fixtures/signed-in";

test("a skip link leads past the navigation; unknown items and addresses answer 404 with a page that leads back", async ({
  page,
  signedIn,
}) => {
  // The keyboard's first stop skips the navigation.
  await page.goto("/integrations");
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeVisible();
  await page.keyboard.press("Enter");
  await page.keyboard.press("Tab");
  expect(await page.evaluate(() => document.activeElement?.closest("main") !== null)).toBe(true);

  // An item of the organization that does not exist: inside the shell, named for what it is.
  const item = await page.goto("/chat/00000000-0000-4000-8000-000000000000");
  expect(item?.status()).toBe(404);
  await expect(page.getByTestId("page-message")).toHaveText("This conversation does not exist");
  await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
  await page.getByRole("link", { name: "Open the chat" }).click();
  await expect(page).toHaveURL(/\/chat$/);

  // An address the app does not have at all.
  const unknown = await page.goto("/no-such-page");
  expect(unknown?.status()).toBe(404);
  await expect(page.getByTestId("page-message")).toHaveText("This page does not exist");
  await page.getByRole("link", { name: "Go to Switchboard" }).click();
  await expect(page.getByTestId("page-title")).toHaveText(signedIn.organizationName);
});
