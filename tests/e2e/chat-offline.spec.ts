import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures/signed-in";
import { IntegrationsPage } from "./pages/integrations";

test("offline chat: discovery at start, /call runs a real MCP tool, and the conversation survives a reload", async ({
  page,
  signedIn: _,
}) => {
  await new IntegrationsPage(page).addFromCatalog("everything");

  await page.getByRole("link", { name: "Chat", exact: true }).click();
  await page.getByRole("button", { name: "New conversation" }).click();
  await expect(page).toHaveURL(/\/chat\/[0-9a-f-]+$/);
  await expect(page.getByText(/Offline mode/)).toBeVisible();

  const input = page.getByLabel("Message", { exact: true });
  await input.fill("hello");
  await input.press("Enter");
  const reply = page.getByTestId("message-assistant").last();
  await expect(reply).toContainText("offline mode");
  await expect(reply).toContainText("everything_echo");
  await expect(reply).toContainText("node_knowledge_retriever");
  await expect(page.getByTestId("discovery-banner")).toContainText(/Everything: \d+ tools/);

  await input.fill('/call everything_echo {"message": "from the chat"}');
  await input.press("Enter");
  const toolCall = page.getByTestId("tool-call").last();
  await expect(toolCall).toContainText("everything_echo");
  await expect(toolCall).toContainText("done");
  await toolCall.locator("summary").click();
  await expect(toolCall.getByTestId("tool-output")).toContainText("Echo: from the chat");
  await expect(page.getByTestId("message-assistant").last()).toContainText("Result of everything_echo:");

  await page.screenshot({ path: test.info().outputPath("chat.png"), fullPage: true });
  await page.reload();
  await expect(page.getByTestId("message-user")).toHaveCount(2);
  await expect(page.getByTestId("tool-call")).toHaveCount(1);
  await expect(page.getByRole("heading", { name: "hello" })).toBeVisible();

  await page.getByRole("button", { name: "Rename conversation" }).click();
  await page.getByLabel("Conversation title").fill("Echo experiments");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("heading", { name: "Echo experiments" })).toBeVisible();
  await page.getByRole("button", { name: "Refresh integrations" }).click();
  await expect(page.getByTestId("discovery-banner")).toContainText(/Everything: \d+ tools/);
  await page.goto("/chat");
  await expect(page.getByTestId("conversation-row")).toContainText("Echo experiments");

  // A tool switched off for the conversation is no longer offered to the model.
  await page.getByTestId("conversation-row").click();
  const panel = page.getByTestId("tools-panel");
  await panel.locator("summary").click();
  const echo = panel.getByRole("checkbox", { name: "everything_echo" });
  await echo.uncheck();
  await expect(panel.locator("summary")).not.toContainText("…");
  await page.reload();
  await page.getByTestId("tools-panel").locator("summary").click();
  await expect(
    page.getByTestId("tools-panel").getByRole("checkbox", { name: "everything_echo" }),
  ).not.toBeChecked();
  await input.fill('/call everything_echo {"message": "off"}');
  await input.press("Enter");
  await expect(page.getByTestId("message-assistant").last()).toContainText(
    "There is no tool named everything_echo",
  );

  // An image in a tool's result is shown; the model only gets a note about it.
  await input.fill("/call everything_get-tiny-image {}");
  await input.press("Enter");
  await expect(page.getByTestId("tool-call")).toHaveCount(2);
  const imageCall = page.getByTestId("tool-call").last();
  await expect(imageCall).toContainText("everything_get-tiny-image done");
  await imageCall.locator("summary").click();
  await expect(imageCall.getByRole("img", { name: "Tool result" })).toBeVisible();
  await expect(page.getByTestId("message-assistant").last()).toContainText("[image: image/png");
});

/** A new conversation of the signed-in organization, once it has the Everything server; the message box. */
async function offlineChatWithEverything(page: Page) {
  await new IntegrationsPage(page).addFromCatalog("everything");
  await page.getByRole("link", { name: "Chat", exact: true }).click();
  await page.getByRole("button", { name: "New conversation" }).click();
  return page.getByLabel("Message", { exact: true });
}

test("a long tool call shows its server's progress while it runs", async ({ page, signedIn: _ }) => {
  const input = await offlineChatWithEverything(page);
  await input.fill('/call everything_trigger-long-running-operation {"duration": 4, "steps": 4}');
  await input.press("Enter");
  const toolCall = page.getByTestId("tool-call").last();
  const progress = toolCall.getByTestId("tool-progress");
  await expect(progress).toContainText(/[1-3] of 4/);
  await expect(toolCall.getByRole("progressbar", { name: /Progress of everything_trigger/ })).toBeVisible();
  await expect(toolCall.getByTestId("tool-status")).toHaveText("done", { timeout: 15_000 });
  await expect(progress).toHaveCount(0);
});

test("a tool's server asks a question in the chat, and the call goes on with the answer", async ({
  page,
  signedIn: _,
}) => {
  const input = await offlineChatWithEverything(page);
  await input.fill("/call everything_trigger-elicitation-request {}");
  await input.press("Enter");
  const question = page.getByTestId("tool-question");
  await expect(question).toContainText("Please provide inputs");
  await page.screenshot({ path: test.info().outputPath("tool-question.png"), fullPage: true });
  // The form checks what the server's schema requires before sending.
  await question.getByRole("button", { name: "Send answer" }).click();
  await expect(question.getByText("Required.")).toBeVisible();
  await question.getByLabel("String *", { exact: true }).fill("Quentin Q");
  await question.getByRole("button", { name: "Send answer" }).click();
  await expect(question).toHaveCount(0);
  const toolCall = page.getByTestId("tool-call").last();
  await expect(toolCall.getByTestId("tool-status")).toHaveText("done");
  await toolCall.locator("summary").click();
  await expect(toolCall.getByTestId("tool-output")).toContainText("- Name: Quentin Q");
});

test("the conversation list: no empty conversations, grouped by day with the agent, searchable", async ({
  page,
  signedIn: _,
}) => {
  await page.goto("/chat");
  await page.getByRole("button", { name: "New conversation" }).click();
  await expect(page).toHaveURL(/\/chat\/[0-9a-f-]+$/);
  const first = page.url();
  // Left without a message: nothing to list, and starting again reuses it.
  await page.goto("/chat");
  await expect(page.getByText("No conversations yet. Start one.")).toBeVisible();
  await page.getByRole("button", { name: "New conversation" }).click();
  await expect(page).toHaveURL(first);

  const input = page.getByLabel("Message", { exact: true });
  await input.fill("Routers in Frankfurt");
  await input.press("Enter");
  await expect(page.getByTestId("message-assistant")).toHaveCount(1);
  await page.goto("/chat");
  await page.getByRole("button", { name: "New conversation" }).click();
  await expect(page).not.toHaveURL(first);
  await page.goto("/chat");

  const today = page.getByRole("region", { name: "Today" });
  await expect(today.getByTestId("conversation-row")).toHaveCount(1);
  await expect(today.getByTestId("conversation-row")).toContainText("Routers in Frankfurt");
  await expect(today.getByTestId("conversation-row")).toContainText("Assistant");

  // The sidebar's search asks the server as one types; it has a spec of its own (chat-sidebar.spec.ts).
  const search = page.getByRole("searchbox", { name: "Search conversations" });
  await search.fill("frankfurt");
  await expect(page.getByTestId("conversation-row")).toHaveCount(1);
  await search.fill("Paris");
  await expect(page.getByText("No conversation mentions “Paris”.")).toBeVisible();
  await search.fill("");
  await expect(page.getByTestId("conversation-row")).toHaveCount(1);
});
