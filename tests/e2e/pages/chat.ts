import { expect, type Page } from "@playwright/test";

/** A conversation page and the chat's sidebar. */
export class ChatPage {
  constructor(private readonly page: Page) {}

  input() {
    return this.page.getByLabel("Message", { exact: true });
  }

  messages(role: "user" | "assistant") {
    return this.page.getByTestId(`message-${role}`);
  }

  /** The scrolling part of a conversation: its messages. */
  pane() {
    return this.page.getByTestId("message-pane");
  }

  sidebar() {
    return this.page.getByTestId("conversation-sidebar");
  }

  /** Sends a message and waits for its answer (offline mode answers at once). */
  async send(text: string) {
    const answers = await this.messages("assistant").count();
    await this.input().fill(text);
    await this.input().press("Enter");
    await expect(this.messages("assistant")).toHaveCount(answers + 1);
    await expect(this.page.getByRole("button", { name: "Send" })).toBeVisible();
  }
}
