import type { Locator, Page } from "@playwright/test";
import { modelAppPort, scriptedLlmPort } from "../../playwright.config";
import { expect, newAccount, test } from "./fixtures/signed-in";
import { checkPage, inEachViewportAndScheme } from "./page-check";

// The app with a model configured: @ai-sdk/openai against our scripted server.
test.use({ baseURL: `http://127.0.0.1:${modelAppPort}` });
const llm = `http://127.0.0.1:${scriptedLlmPort}`;

async function script(page: Page, texts: string[]) {
  const response = await page.request.post(`${llm}/__script`, {
    data: { steps: texts.map((text) => ({ text })) },
  });
  expect(response.ok()).toBe(true);
}

/** What the model was sent in each request since the last script, as JSON text. */
async function sentToModel(page: Page): Promise<string[]> {
  const { requests } = (await (await page.request.get(`${llm}/__requests`)).json()) as {
    requests: { messages: unknown }[];
  };
  return requests.map((request) => JSON.stringify(request.messages));
}

const messages = (page: Page) => page.getByTestId("messages").locator(":scope > li[data-testid^=message-]");
const answers = (page: Page) => page.getByTestId("message-assistant");
const questions = (page: Page) => page.getByTestId("message-user");

async function ask(page: Page, text: string, answer: string) {
  const input = page.getByLabel("Message", { exact: true });
  await input.fill(text);
  await input.press("Enter");
  await expect(answers(page).last()).toContainText(answer, { timeout: 30_000 });
  await expect(page.getByLabel("Message", { exact: true })).toBeEnabled();
}

const versionOf = (message: Locator) => message.getByTestId("message-versions");

test.describe
  .serial("editing, branching and regenerating in a conversation", () => {
    test.use({ account: newAccount("Bria Branches") });

    inEachViewportAndScheme(({ viewport, colorScheme }) => {
      test(`edits the second of four questions, moves between the branches after a reload, and regenerates the first answer, at ${viewport.width} px, ${colorScheme}`, async ({
        page,
        signedIn: _,
      }) => {
        test.setTimeout(180_000);
        await page.setViewportSize(viewport);
        await page.emulateMedia({ colorScheme });
        const problems: string[] = [];

        await page.goto("/chat");
        await page.getByRole("button", { name: "New conversation" }).click();
        await expect(page).toHaveURL(/\/chat\/[0-9a-f-]{36}$/);
        const url = page.url().replace(/^https?:\/\/[^/]+/, "");
        await script(page, [
          "Answer one.",
          "Answer two.",
          "Answer three.",
          "Answer four.",
          "Answer to the edit.",
          "Answer one, again.",
        ]);
        await ask(page, "First question", "Answer one.");
        await ask(page, "Second question", "Answer two.");
        await ask(page, "Third question", "Answer three.");
        await ask(page, "Fourth question", "Answer four.");
        await expect(messages(page)).toHaveCount(8);

        // Edit the second question: what came after it is set aside, and the edit is answered.
        await questions(page).nth(1).getByRole("button", { name: "Edit message" }).click();
        const editor = page.getByLabel("Edit your message");
        await expect(editor).toHaveValue("Second question");
        await editor.fill("Second question, edited");
        await questions(page).nth(1).getByRole("button", { name: "Send", exact: true }).click();
        await expect(answers(page).last()).toContainText("Answer to the edit.", { timeout: 30_000 });
        await expect(messages(page)).toHaveCount(4);
        const sent = (await sentToModel(page)).at(-1) ?? "";
        expect(sent).toContain("Second question, edited");
        expect(sent).not.toContain("Third question");
        await expect(versionOf(questions(page).nth(1))).toContainText("2/2");

        // After a reload the server shows the edited branch, and the first one is a click away.
        await checkPage(page, url, viewport.width, colorScheme, problems);
        await expect(messages(page)).toHaveCount(4);
        await expect(questions(page).nth(1)).toContainText("Second question, edited");
        await versionOf(questions(page).nth(1)).getByRole("button", { name: "Previous version" }).click();
        await expect(messages(page)).toHaveCount(8);
        await expect(questions(page).nth(1)).toContainText("Second question");
        await expect(versionOf(questions(page).nth(1))).toContainText("1/2");
        await expect(answers(page).last()).toContainText("Answer four.");

        // The choice of version is stored: a reload keeps the first branch shown; then back to the edit.
        await checkPage(page, url, viewport.width, colorScheme, problems);
        await expect(messages(page)).toHaveCount(8);
        await expect(versionOf(questions(page).nth(1))).toContainText("1/2");
        await versionOf(questions(page).nth(1)).getByRole("button", { name: "Next version" }).click();
        await expect(messages(page)).toHaveCount(4);
        await expect(answers(page).last()).toContainText("Answer to the edit.");

        // Regenerate the first answer: a new version, answered from the first question alone.
        await answers(page).first().getByRole("button", { name: "Regenerate answer" }).click();
        await expect(answers(page).first()).toContainText("Answer one, again.", { timeout: 30_000 });
        await expect(messages(page)).toHaveCount(2);
        const regenerated = (await sentToModel(page)).at(-1) ?? "";
        expect(regenerated).toContain("First question");
        expect(regenerated).not.toContain("Second question");
        await expect(versionOf(answers(page).first())).toContainText("2/2");

        await checkPage(page, url, viewport.width, colorScheme, problems);
        await expect(answers(page).first()).toContainText("Answer one, again.");
        await versionOf(answers(page).first()).getByRole("button", { name: "Previous version" }).click();
        await expect(answers(page).first()).toContainText("Answer one.");
        await expect(messages(page)).toHaveCount(4);
        await expect(versionOf(questions(page).nth(1))).toContainText("2/2");
        expect(problems).toEqual([]);
      });
    });
  });
