import { expect, test } from "@playwright/test";

test("every page links the app's icons, which are served, and the browser logs no error", async ({
  page,
}) => {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("response", (response) => {
    if (response.status() >= 400) errors.push(`${response.status()} ${response.url()}`);
  });
  await page.goto("/login");
  await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
  const icons = await page
    .locator('link[rel="icon"]')
    .evaluateAll((links) => links.map((link) => link.getAttribute("href")));
  expect(icons).toEqual(expect.arrayContaining([expect.stringMatching(/^\/favicon\.ico/), "/icon.svg"]));
  await expect(page.locator('link[rel="apple-touch-icon"]')).toHaveAttribute("href", "/apple-touch-icon.png");
  for (const [url, type] of [
    ["/favicon.ico", /icon/],
    ["/icon.svg", /image\/svg\+xml/],
    ["/apple-touch-icon.png", /image\/png/],
    ["/icon-512.png", /image\/png/],
    ["/manifest.webmanifest", /manifest\+json|json/],
  ] as const) {
    const response = await page.request.get(url);
    expect(response.status(), url).toBe(200);
    expect(response.headers()["content-type"], url).toMatch(type);
  }
  expect(errors).toEqual([]);
});
