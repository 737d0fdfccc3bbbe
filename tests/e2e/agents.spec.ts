import type { Page } from "@playwright/test";
import { modelAppPort, scriptedLlmPort } from "../../playwright.config";
import { type RunningFixture, startFixture } from "../fixtures/mcp/start-fixture";
import { expect, newAccount, test } from "./fixtures/signed-in";
import { seriousViolations } from "./page-check";
import { IntegrationsPage } from "./pages/integrations";

async function call(page: Page, text: string) {
  const input = page.getByLabel("Message", { exact: true });
  await input.fill(text);
  await input.press("Enter");
}

test("an agent that asks before every tool asks before running them: deny, allow once, allow for the conversation", async ({
  page,
  signedIn: _,
}) => {
  test.slow();
  await new IntegrationsPage(page).addFromCatalog("everything");

  await page.getByRole("link", { name: "Agents", exact: true }).click();
  await expect(page.getByTestId("agent-row")).toHaveCount(1);
  await page.getByRole("link", { name: "New agent" }).click();
  const form = page.getByRole("form", { name: "Agent" });
  await form.getByRole("button", { name: "Create agent" }).click();
  await expect(form.getByTestId("agent-name-error")).toHaveText("Enter a name.");
  await form.getByLabel("Name", { exact: true }).fill("Careful");
  await form.getByLabel("Instructions").fill("Only echo things.");
  await form.getByLabel("Only these").check();
  await form.getByRole("checkbox", { name: "Everything" }).check();
  await form.getByRole("checkbox", { name: /node_knowledge_retriever/ }).uncheck();
  await form.getByRole("checkbox", { name: /knowledge_search/ }).uncheck();
  await expect(form.getByLabel("Ask before tools that may change things")).toBeChecked();
  await form.getByLabel("Ask before every tool").check();
  await form.getByRole("button", { name: "Create agent" }).click();
  await expect(page).toHaveURL(/\/agents$/);
  const row = page.getByTestId("agent-row").filter({ hasText: "Careful" });
  await expect(row).toContainText("Asks before every tool");
  await expect(row).toContainText("Everything");

  await row.getByRole("button", { name: "Chat with Careful" }).click();
  await expect(page).toHaveURL(/\/chat\/[0-9a-f-]+$/);
  await expect(page.getByTestId("conversation-agent")).toContainText("Careful · asks before every tool");

  await call(page, "hello");
  const reply = page.getByTestId("message-assistant").last();
  await expect(reply).toContainText("everything_echo");
  await expect(reply).not.toContainText("node_knowledge_retriever");

  await call(page, '/call everything_echo {"message": "one"}');
  const approval = page.getByTestId("tool-approval");
  await expect(approval).toBeVisible();
  await expect(approval.getByTestId("tool-approval-reason")).toHaveText(
    /^This agent asks before every tool\./,
  );
  // The card meets the page standard in both colour schemes.
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    expect(await seriousViolations(page, '[data-testid="tool-approval"]')).toEqual([]);
  }
  await expect(page.getByTestId("tool-status").last()).toHaveText("waiting for approval");
  await approval.getByRole("button", { name: "Deny" }).click();
  await expect(page.getByTestId("message-assistant").last()).toContainText(
    "You denied everything_echo, so it did not run.",
  );
  await expect(page.getByTestId("tool-status").last()).toHaveText("denied");

  await call(page, '/call everything_echo {"message": "two"}');
  await page.getByTestId("tool-approval").getByRole("button", { name: "Allow once" }).click();
  await expect(page.getByTestId("message-assistant").last()).toContainText("Echo: two");

  await call(page, '/call everything_echo {"message": "three"}');
  await page
    .getByTestId("tool-approval")
    .getByRole("button", { name: "Allow for this conversation" })
    .click();
  await expect(page.getByTestId("message-assistant").last()).toContainText("Echo: three");

  await call(page, '/call everything_echo {"message": "four"}');
  await expect(page.getByTestId("message-assistant").last()).toContainText("Echo: four");
  await expect(page.getByTestId("tool-approval")).toHaveCount(0);

  await page.reload();
  await expect(page.getByTestId("tool-call")).toHaveCount(4);
  await expect(page.getByTestId("tool-status").first()).toHaveText("denied");

  await page.goto("/agents");
  await page.getByRole("link", { name: "Careful" }).click();
  await page.getByLabel("Name", { exact: true }).fill("Very careful");
  await page.getByRole("button", { name: "Save agent" }).click();
  await expect(page.getByTestId("agent-row").filter({ hasText: "Very careful" })).toBeVisible();
  await page.getByRole("link", { name: "Very careful" }).click();
  await page.getByRole("button", { name: "Delete agent" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
  await expect(page).toHaveURL(/\/agents$/);
  await expect(page.getByTestId("agent-row")).toHaveCount(1);
});

test.describe("with a model", () => {
  // The app with a model: the real @ai-sdk/openai provider against our scripted server.
  test.use({ baseURL: `http://127.0.0.1:${modelAppPort}`, account: newAccount() });
  const llm = `http://127.0.0.1:${scriptedLlmPort}`;
  let weather: RunningFixture;
  test.beforeAll(async () => {
    weather = await startFixture("structured");
  });
  test.afterAll(async () => {
    await weather?.stop();
  });

  async function script(page: Page, steps: unknown[]) {
    expect((await page.request.post(`${llm}/__script`, { data: { steps } })).ok()).toBe(true);
  }

  test("a new agent runs a read-only tool without asking and asks before a destructive one", async ({
    page,
    signedIn: _,
  }) => {
    test.slow();
    await new IntegrationsPage(page).addCustom({ name: "Weather", url: weather.url });
    await page.goto("/agents/new");
    const form = page.getByRole("form", { name: "Agent" });
    await form.getByLabel("Name", { exact: true }).fill("Forecaster");
    await form.getByLabel("Only these").first().check();
    await form.getByRole("checkbox", { name: "Weather" }).check();
    await expect(form.getByLabel("Ask before tools that may change things")).toBeChecked();
    await form.getByRole("button", { name: "Create agent" }).click();
    await expect(page).toHaveURL(/\/agents$/);
    const row = page.getByTestId("agent-row").filter({ hasText: "Forecaster" });
    await expect(row).toContainText("Asks before tools that may change things");
    await row.getByRole("button", { name: "Chat with Forecaster" }).click();
    await expect(page).toHaveURL(/\/chat\/[0-9a-f-]+$/);
    await expect(page.getByTestId("conversation-agent")).toContainText(
      "Forecaster · asks before tools that may change things",
    );

    // forecast says it only reads: it runs as soon as the model calls it.
    await script(page, [
      { toolCalls: [{ name: "weather_forecast", arguments: { answer: "valid" } }] },
      { text: "Tomorrow brings 21 degrees." },
    ]);
    await call(page, "What is the weather tomorrow?");
    await expect(page.getByTestId("message-assistant").last()).toContainText("Tomorrow brings 21 degrees.", {
      timeout: 30_000,
    });
    await expect(page.getByTestId("tool-approval")).toHaveCount(0);
    await expect(page.getByTestId("tool-status").last()).not.toHaveText("waiting for approval");

    // clear_history says it is destructive: it waits for the user.
    await script(page, [
      { toolCalls: [{ name: "weather_clear_history", arguments: {} }] },
      { text: "The history is gone." },
    ]);
    await call(page, "Forget the old forecasts");
    const approval = page.getByTestId("tool-approval");
    await expect(approval).toBeVisible({ timeout: 30_000 });
    await expect(approval).toContainText("weather_clear_history (Clear the history)");
    await expect(approval.getByTestId("tool-approval-reason")).toHaveText(
      "This tool says it may be destructive. Its hints: destructive, idempotent, no outside services.",
    );
    await expect(page.getByTestId("tool-status").last()).toHaveText("waiting for approval");
    await approval.getByRole("button", { name: "Allow once" }).click();
    await expect(page.getByTestId("message-assistant").last()).toContainText("The history is gone.", {
      timeout: 30_000,
    });
    await expect(page.getByTestId("tool-approval")).toHaveCount(0);
  });
});
