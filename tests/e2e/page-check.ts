import AxeBuilder from "@axe-core/playwright";
import { type Page, test } from "@playwright/test";

/** One window size and colour scheme that a page is checked in. */
export type PageView = { viewport: { width: number; height: number }; colorScheme: "light" | "dark" };

// One list, so every spec checks the page standard on the same laptop and phone, light and dark.
const views: PageView[] = [
  { width: 1366, height: 768 },
  { width: 390, height: 844 },
].flatMap((viewport) => (["light", "dark"] as const).map((colorScheme) => ({ viewport, colorScheme })));

/**
 * Runs `check` in each viewport × colour scheme, widest first and light before dark: a sync check to declare one
 * test per view, an async one to check every view in turn within one test (each waits for the one before).
 */
export function inEachViewportAndScheme(check: (view: PageView) => void): void;
export function inEachViewportAndScheme(check: (view: PageView) => Promise<void>): Promise<void>;
export function inEachViewportAndScheme(
  check: (view: PageView) => void | Promise<void>,
): void | Promise<void> {
  return views.reduce<void | Promise<void>>(
    (before, view) => (before instanceof Promise ? before.then(() => check(view)) : check(view)),
    undefined,
  );
}

/** What axe-core finds serious or critical on the page as it is now (or in one part of it), each with where. */
export async function seriousViolations(page: Page, within?: string): Promise<string[]> {
  const builder = new AxeBuilder({ page });
  if (within) builder.include(within);
  const { violations } = await builder.withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}) at ${violation.nodes
          .slice(0, 3)
          .map((node) => node.target.join(" "))
          .join(", ")}`,
    );
}

/** Opens a page and adds to `problems` what is wider than the window and what axe-core finds serious. */
export async function checkPage(
  page: Page,
  path: string,
  width: number,
  colorScheme: string,
  problems: string[],
) {
  await page.goto(path);
  await page.waitForLoadState("networkidle");
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  // The pages a newcomer sees most, kept for a person to look at.
  const shot = { "/": "overview", "/admin": "dashboard" }[path] ?? (path.startsWith("/chat/") ? "chat" : "");
  if (shot)
    await page.screenshot({
      path: test.info().outputPath(`${shot}-${width}-${colorScheme}.png`),
      fullPage: true,
    });
  if (scrollWidth > innerWidth) problems.push(`${path}: ${scrollWidth} px wide in a ${innerWidth} px window`);
  for (const violation of await seriousViolations(page)) problems.push(`${path}: ${violation}`);
}
