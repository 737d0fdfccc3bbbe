import { expect, type Page } from "@playwright/test";

/** The authorization server's consent page (/oauth/consent), after any sign-in. */
export class ConsentPage {
  constructor(private readonly page: Page) {}

  form() {
    return this.page.getByRole("form", { name: "Connect an app" });
  }

  /** Waits for the page, whatever brought the browser there (the authorization endpoint, a sign-in). */
  async shown(clientName: string) {
    await expect(this.page).toHaveURL(/\/oauth\/consent\?request=/);
    await expect(this.page.getByRole("heading", { level: 1 })).toContainText(`${clientName} wants to use`);
  }

  /** Chooses what the app may use, by the option's label ("Every tool of the organization", …). */
  async mayUse(label: string) {
    await this.form().getByLabel("May use", { exact: true }).selectOption({ label });
  }

  async allow() {
    await this.form().getByRole("button", { name: "Allow" }).click();
  }

  async deny() {
    await this.form().getByRole("button", { name: "Deny" }).click();
  }
}
