import type { Page } from "@playwright/test";
import { modelAppPort, scriptedLlmPort } from "../../playwright.config";
import { expect, newAccount, test } from "./fixtures/signed-in";
import { IntegrationsPage } from "./pages/integrations";

// This file talks to the app that has a model configured: @ai-sdk/openai against our scripted server.
test.use({ baseURL: `http://127.0.0.1:${modelAppPort}` });
const llm = `http://127.0.0.1:${scriptedLlmPort}`;

async function script(page: Page, steps: unknown[]) {
  const response = await page.request.post(`${llm}/__script`, { data: { steps } });
  expect(response.ok()).toBe(true);
}

test.describe
  .serial("chat with a model", () => {
    // One organization for every test: the first adds the integrations the others use.
    test.use({ account: newAccount() });

    test("a multi-step tool loop runs real MCP tools, and a broken integration only shows in the banner", async ({
      page,
      signedIn: _,
    }) => {
      const integrations = new IntegrationsPage(page);
      await integrations.addFromCatalog("everything");
      await integrations.addCustom({ name: "Broken server", url: "http://no-such-host.invalid/mcp" });

      await script(page, [
        { toolCalls: [{ name: "everything_echo", arguments: { message: "first" } }] },
        { toolCalls: [{ name: "everything_get-sum", arguments: { a: 40, b: 2 } }] },
        { text: "The echo said first, and the sum is 42." },
      ]);
      await page.goto("/chat");
      await page.getByRole("button", { name: "New conversation" }).click();
      await expect(page.getByText(/Offline mode/)).toHaveCount(0);
      const input = page.getByLabel("Message", { exact: true });
      await input.fill("Echo and add, please");
      await input.press("Enter");

      await expect(page.getByTestId("message-assistant").last()).toContainText("the sum is 42", {
        timeout: 30_000,
      });
      await expect(page.getByTestId("tool-call")).toHaveCount(2);
      await expect(page.getByTestId("discovery-banner")).toContainText(/Everything: \d+ tools/);
      await expect(page.getByTestId("discovery-banner")).toContainText(
        /Broken server unavailable: Could not find the host/,
      );

      // The model was sent each tool's real result before its next step.
      const { requests } = (await (await page.request.get(`${llm}/__requests`)).json()) as {
        requests: {
          messages: { role: string; content: unknown }[];
          tools?: { function: { name: string } }[];
        }[];
      };
      expect(requests).toHaveLength(3);
      expect(requests[0]?.tools?.map((tool) => tool.function.name)).toEqual(
        expect.arrayContaining(["node_knowledge_retriever", "everything_echo"]),
      );
      expect(JSON.stringify(requests[1]?.messages.at(-1))).toContain("Echo: first");
      expect(JSON.stringify(requests[2]?.messages.at(-1))).toContain("42");
    });

    test("a failing tool's error reaches the model, which explains it", async ({ page, signedIn: _ }) => {
      await script(page, [
        { toolCalls: [{ name: "node_knowledge_retriever", arguments: { node_names: [] } }] },
        { text: "The knowledge tool needs at least one node name." },
      ]);
      await page.goto("/chat");
      await page.getByRole("button", { name: "New conversation" }).click();
      const input = page.getByLabel("Message", { exact: true });
      await input.fill("Look up nothing");
      await input.press("Enter");
      await expect(page.getByTestId("message-assistant").last()).toContainText(
        "needs at least one node name",
        { timeout: 30_000 },
      );
      await expect(page.getByTestId("tool-call")).toContainText("failed");
      const { requests } = (await (await page.request.get(`${llm}/__requests`)).json()) as {
        requests: { messages: unknown[] }[];
      };
      expect(JSON.stringify(requests[1]?.messages.at(-1))).toContain("node_names is required");
    });
    test("a prompt runs as a slash command, and an attached resource reaches the model", async ({
      page,
      signedIn: _,
    }) => {
      await script(page, [
        { text: "It is sunny in Lisbon." },
        { text: "The architecture document describes the layout." },
      ]);
      await page.goto("/chat");
      await page.getByRole("button", { name: "New conversation" }).click();
      await expect(page.getByTestId("tools-panel")).toBeVisible({ timeout: 30_000 });

      const input = page.getByLabel("Message", { exact: true });
      await input.fill("/args");
      await page.getByRole("option", { name: /\/args-prompt/ }).click();
      const form = page.getByRole("form", { name: "Arguments of /args-prompt" });
      await form.getByLabel("city", { exact: true }).fill("Lisbon");
      await form.getByRole("button", { name: "Use prompt" }).click();
      await expect(page.getByTestId("message-user").last()).toContainText("What's weather in Lisbon?");
      await expect(page.getByTestId("message-assistant").last()).toContainText("sunny in Lisbon", {
        timeout: 30_000,
      });

      await input.fill("Summarize @architecture");
      await page.getByRole("option", { name: /architecture\.md/ }).click();
      await expect(input).toHaveValue("Summarize ");
      const chip = page.getByTestId("attachment");
      await expect(chip).toContainText("architecture.md");
      await expect(chip.locator(".animate-spin")).toHaveCount(0);
      await input.press("Enter");
      await expect(page.getByTestId("message-assistant").last()).toContainText("describes the layout", {
        timeout: 30_000,
      });
      await expect(page.getByTestId("message-user").last().getByTestId("message-attachment")).toContainText(
        "architecture.md",
      );

      const { requests } = (await (await page.request.get(`${llm}/__requests`)).json()) as {
        requests: { messages: { role: string; content: unknown }[] }[];
      };
      expect(JSON.stringify(requests[0]?.messages.at(-1))).toContain("What's weather in Lisbon?");
      const attached = JSON.stringify(requests[1]?.messages.at(-1));
      expect(attached).toContain("Summarize");
      expect(attached).toContain('Attached resource \\"architecture.md\\"');

      await page.reload();
      await expect(page.getByTestId("message-user")).toHaveCount(2);
      await expect(page.getByTestId("message-attachment")).toContainText("architecture.md");
    });
    test("a model the server does not have gives a clear message in the chat", async ({
      page,
      signedIn: _,
    }) => {
      await script(page, [{ error: { status: 404, message: "The model `scripted-model` does not exist" } }]);
      await page.goto("/chat");
      await page.getByRole("button", { name: "New conversation" }).click();
      const input = page.getByLabel("Message", { exact: true });
      await input.fill("Anyone there?");
      await input.press("Enter");
      await expect(page.getByRole("alert").filter({ hasText: "model server" })).toContainText(
        'has no model "scripted-model" (HTTP 404). Check the agent\'s model or CHAT_MODEL.',
        { timeout: 30_000 },
      );
      await expect(page.getByTestId("message-user")).toContainText("Anyone there?");

      // The failed turn is kept with its reason: a reload still shows it, and Retry answers the same message.
      await page.reload();
      const failed = page.getByRole("alert").filter({ hasText: "model server" });
      await expect(failed).toContainText('has no model "scripted-model" (HTTP 404).');
      await script(page, [{ text: "Here now." }]);
      await failed.getByRole("button", { name: "Retry" }).click();
      await expect(page.getByTestId("message-assistant").last()).toContainText("Here now.", {
        timeout: 30_000,
      });
      await expect(page.getByRole("alert").filter({ hasText: "model server" })).toHaveCount(0);
      await page.reload();
      await expect(page.getByTestId("message-assistant")).toHaveCount(1);
      await expect(page.getByTestId("message-assistant")).toContainText("Here now.");
      await expect(page.getByTestId("message-user")).toHaveCount(1);
    });

    test("Stop ends a streaming answer and keeps what came, which stays after a reload; Regenerate answers again in its place", async ({
      page,
      signedIn: _,
    }) => {
      const words = Array.from({ length: 60 }, (_, i) => `word${i}`).join(" ");
      await script(page, [{ text: words, delayMs: 150 }]);
      await page.goto("/chat");
      await page.getByRole("button", { name: "New conversation" }).click();
      const input = page.getByLabel("Message", { exact: true });
      await input.fill("Say many words");
      await input.press("Enter");
      const answer = page.getByTestId("message-assistant").last();
      await expect(answer).toContainText("word3");
      await page.getByRole("button", { name: "Stop" }).click();
      await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
      const kept = (await answer.textContent()) ?? "";
      expect(kept).toContain("word3");
      expect(kept).not.toContain("word59");
      await page.reload();
      await expect(page.getByTestId("message-assistant").last()).toContainText("word3");
      await expect(page.getByTestId("message-assistant").last()).not.toContainText("word59");

      // Regenerate answers the same question again, in place of the stopped answer.
      await script(page, [{ text: "A whole answer this time." }]);
      await page.getByRole("button", { name: "Regenerate the last answer" }).click();
      await expect(page.getByTestId("message-assistant").last()).toHaveText(/A whole answer this time\./);
      await expect(page.getByTestId("message-assistant")).toHaveCount(1);
      await page.reload();
      await expect(page.getByTestId("message-assistant")).toHaveCount(1);
      await expect(page.getByTestId("message-assistant")).toContainText("A whole answer this time.");
    });

    test("a 200 KB one-line tool result stays inside the page, and the chat follows the newest message", async ({
      page,
      signedIn: _,
    }) => {
      const long = "x".repeat(200_000);
      await script(page, [
        { toolCalls: [{ name: "everything_echo", arguments: { message: long } }] },
        { text: "That was long." },
      ]);
      await page.goto("/chat");
      await page.getByRole("button", { name: "New conversation" }).click();
      const input = page.getByLabel("Message", { exact: true });
      await input.fill("Echo something long");
      await input.press("Enter");
      const answer = page.getByTestId("message-assistant").last();
      await expect(answer).toContainText("That was long.", { timeout: 30_000 });
      const widths = () =>
        page.evaluate(() => ({ page: document.documentElement.scrollWidth, viewport: window.innerWidth }));
      expect((await widths()).page).toBeLessThanOrEqual((await widths()).viewport);
      await page.getByTestId("tool-call").locator("summary").click();
      const output = page.getByTestId("tool-output");
      await expect(output.getByRole("button", { name: /Show all \(200K characters\)/ })).toBeVisible();
      await output.getByRole("button", { name: /Show all/ }).click();
      await expect(output.getByRole("button", { name: "Show less" })).toBeVisible();
      expect((await widths()).page).toBeLessThanOrEqual((await widths()).viewport);

      // Opened again, the conversation shows its newest message; scrolled up, a button leads back.
      await page.reload();
      await expect(page.getByText("That was long.")).toBeInViewport();
      await page.getByTestId("tool-call").locator("summary").click();
      await page
        .getByTestId("tool-output")
        .getByRole("button", { name: /Show all/ })
        .click();
      await page.getByTestId("message-pane").evaluate((pane) => pane.scrollTo(0, 0));
      const jump = page.getByRole("button", { name: "Jump to latest" });
      await expect(jump).toBeVisible();
      await jump.click();
      await expect(page.getByText("That was long.")).toBeInViewport();
      await expect(jump).toHaveCount(0);
    });
  });
