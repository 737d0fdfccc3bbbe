import type { Page } from "@playwright/test";
import { modelAppPort, scriptedLlmPort } from "../../playwright.config";
import { expect, newAccount, test } from "./fixtures/signed-in";
import { checkPage, inEachViewportAndScheme } from "./page-check";

// The app with a model configured: @ai-sdk/openai against our scripted server.
test.use({ baseURL: `http://127.0.0.1:${modelAppPort}` });
const llm = `http://127.0.0.1:${scriptedLlmPort}`;

/** The model's next answer: `count` words, `delayMs` apart. */
async function slowAnswer(page: Page, count: number, delayMs: number) {
  const text = Array.from({ length: count }, (_, i) => `word${i}`).join(" ");
  const response = await page.request.post(`${llm}/__script`, { data: { steps: [{ text, delayMs }] } });
  expect(response.ok()).toBe(true);
}

async function ask(page: Page, text: string) {
  const input = page.getByLabel("Message", { exact: true });
  await input.fill(text);
  await input.press("Enter");
}

const answer = (page: Page) => page.getByTestId("message-assistant").last();

test.describe
  .serial("a turn that outlives its page", () => {
    test.use({ account: newAccount("Remy Resume") });

    inEachViewportAndScheme(({ viewport, colorScheme }) => {
      test(`a reload mid-answer shows the answer complete, and Stop after a reload keeps what came, at ${viewport.width} px, ${colorScheme}`, async ({
        page,
        signedIn: _,
      }) => {
        test.setTimeout(120_000);
        await page.setViewportSize(viewport);
        await page.emulateMedia({ colorScheme });
        await page.goto("/chat");
        await page.getByRole("button", { name: "New conversation" }).click();
        await expect(page).toHaveURL(/\/chat\/[0-9a-f-]{36}$/);
        const url = page.url().replace(/^https?:\/\/[^/]+/, "");

        // Six seconds of answer.
        await slowAnswer(page, 40, 150);
        await ask(page, "Say many words");
        await expect(answer(page)).toContainText("word3");
        await page.reload();
        // The question, then the answer re-attached to and followed to its end.
        await expect(page.getByTestId("message-user").last()).toContainText("Say many words");
        await expect(answer(page)).toContainText("word39", { timeout: 30_000 });
        await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
        await expect(page.getByTestId("message-assistant")).toHaveCount(1);
        const problems: string[] = [];
        await checkPage(page, url, viewport.width, colorScheme, problems);
        expect(problems).toEqual([]);
        await expect(answer(page)).toContainText("word0 word1");
        await expect(answer(page)).toContainText("word39");

        // Stop is explicit: after a reload, it still ends the answer on the server.
        // Thirty seconds of answer: still coming after the reload, however slow the machine.
        await slowAnswer(page, 100, 300);
        await ask(page, "Again, please");
        // The second answer, each time: until it shows, the last answer on the page is the first one.
        await expect(page.getByTestId("message-assistant")).toHaveCount(2);
        await expect(answer(page)).toContainText("word3");
        await page.reload();
        await expect(page.getByTestId("message-assistant")).toHaveCount(2);
        await expect(answer(page)).toContainText("word6", { timeout: 30_000 });
        await page.getByRole("button", { name: "Stop" }).click();
        await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
        await page.reload();
        await expect(page.getByTestId("message-assistant")).toHaveCount(2);
        await expect(answer(page)).toContainText("word6");
        await expect(answer(page)).not.toContainText("word99");
      });
    });
  });
