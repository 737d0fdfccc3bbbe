import { readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import { modelAppPort, scriptedLlmPort } from "../../playwright.config";
import { expect, newAccount, test } from "./fixtures/signed-in";
import { checkPage, inEachViewportAndScheme } from "./page-check";

// The app with a model configured: @ai-sdk/openai against our scripted server, which lists scripted-model (the
// agents' default, CHAT_MODEL) and scripted-large at /v1/models.
test.use({ baseURL: `http://127.0.0.1:${modelAppPort}` });
const llm = `http://127.0.0.1:${scriptedLlmPort}`;

async function script(page: Page, steps: unknown[]) {
  const response = await page.request.post(`${llm}/__script`, { data: { steps } });
  expect(response.ok()).toBe(true);
}

async function modelsAsked(page: Page): Promise<string[]> {
  const { requests } = (await (await page.request.get(`${llm}/__requests`)).json()) as {
    requests: { model: string }[];
  };
  return requests.map((request) => request.model);
}

test.describe
  .serial("choosing a conversation's model", () => {
    test.use({ account: newAccount("Mona Models") });

    inEachViewportAndScheme(({ viewport, colorScheme }) => {
      test(`an admin allows a model, a conversation chooses it and the model server receives it, at ${viewport.width} px, ${colorScheme}`, async ({
        page,
        signedIn: _,
      }) => {
        await page.setViewportSize(viewport);
        await page.emulateMedia({ colorScheme });
        const problems: string[] = [];

        // The organization's settings list what the endpoint's /models answered.
        await checkPage(page, "/settings/models", viewport.width, colorScheme, problems);
        await expect(page.getByRole("heading", { name: "Chat models" })).toBeVisible();
        const allowed = page.getByRole("form", { name: "Allowed chat models" });
        await allowed.getByRole("checkbox", { name: "scripted-large" }).check();
        await allowed.getByRole("button", { name: "Save" }).click();
        await expect(allowed.getByRole("status")).toHaveText("Saved: scripted-large.");

        await page.goto("/chat");
        await page.getByRole("button", { name: "New conversation" }).click();
        const picker = page.getByLabel("Model", { exact: true });
        await expect(picker).toHaveValue("scripted-model");
        await expect(picker.locator("option")).toHaveText([
          "scripted-model (agent's default)",
          "scripted-large",
        ]);
        await picker.selectOption("scripted-large");

        await script(page, [
          { text: "Answered by the large model.", usage: { prompt_tokens: 1200, completion_tokens: 34 } },
        ]);
        const input = page.getByLabel("Message", { exact: true });
        await input.fill("Which model are you?");
        await input.press("Enter");
        const answer = page.getByTestId("message-assistant").last();
        await expect(answer).toContainText("Answered by the large model.", { timeout: 30_000 });
        expect(await modelsAsked(page)).toEqual(["scripted-large"]);
        await expect(answer.getByTestId("answer-facts")).toHaveText("scripted-large · 1,200 in · 34 out");
        await expect(page.getByTestId("conversation-tokens")).toHaveText("Tokens: 1,200 in · 34 out");

        // Back to the agent's model: the next answer names it, and the conversation adds up both.
        await picker.selectOption("scripted-model");
        await script(page, [{ text: "Now the default one." }]);
        await input.fill("And now?");
        await input.press("Enter");
        await expect(page.getByTestId("message-assistant").last()).toContainText("Now the default one.", {
          timeout: 30_000,
        });
        expect(await modelsAsked(page)).toEqual(["scripted-model"]);
        await expect(page.getByTestId("answer-facts")).toHaveText([
          "scripted-large · 1,200 in · 34 out",
          "scripted-model · 11 in · 7 out",
        ]);
        await expect(page.getByTestId("conversation-tokens")).toHaveText("Tokens: 1,211 in · 41 out");

        // The choice and each answer's model are kept by the server: a reload shows them again.
        const saved = page.waitForResponse(
          (response) => response.request().method() === "POST" && response.url() === page.url(),
        );
        await picker.selectOption("scripted-large");
        await saved;
        const url = page.url().replace(/^https?:\/\/[^/]+/, "");
        await checkPage(page, url, viewport.width, colorScheme, problems);
        await expect(page.getByLabel("Model", { exact: true })).toHaveValue("scripted-large");
        await expect(page.getByTestId("answer-facts")).toHaveText([
          "scripted-large · 1,200 in · 34 out",
          "scripted-model · 11 in · 7 out",
        ]);

        // Exported as Markdown and as JSON, each answer with its model and tokens.
        const downloaded = async (name: string) => {
          const [file] = await Promise.all([
            page.waitForEvent("download"),
            page.getByRole("link", { name }).click(),
          ]);
          return {
            name: file.suggestedFilename(),
            text: await readFile((await file.path()) ?? "", "utf8"),
          };
        };
        const markdown = await downloaded("Export as Markdown");
        expect(markdown.name).toBe("which-model-are-you.md");
        expect(markdown.text).toContain("## You\n\nWhich model are you?");
        expect(markdown.text).toContain(
          "## Assistant (scripted-large, 1200 in, 34 out)\n\nAnswered by the large model.",
        );
        expect(markdown.text).toContain("Tokens: 1211 in, 41 out.");
        const json = await downloaded("Export as JSON");
        expect(json.name).toBe("which-model-are-you.json");
        expect(JSON.parse(json.text)).toMatchObject({
          title: "Which model are you?",
          tokens: { inputTokens: 1211, outputTokens: 41 },
        });
        expect(problems).toEqual([]);
      });
    });
  });
