import { expect, type Page } from "@playwright/test";

/** The page an invitation link opens, and the ways on from it. */
export class InvitationPage {
  constructor(private readonly page: Page) {}

  async open(link: string) {
    await this.page.goto(link);
  }

  organization() {
    return this.page.getByTestId("invited-organization");
  }

  role() {
    return this.page.getByTestId("invited-role");
  }

  email() {
    return this.page.getByTestId("invited-email");
  }

  /** The page for a link that cannot be used, with why (invalid, accepted, revoked, expired). */
  unavailable() {
    return this.page.getByTestId("invitation-unavailable");
  }

  async createAccount(input: { name: string; password: string }) {
    await this.page.getByRole("link", { name: "Create an account" }).click();
    await expect(this.page.getByRole("heading", { name: "Create your account" })).toBeVisible();
    await this.page.getByLabel("Your name").fill(input.name);
    await this.page.getByLabel("Password").fill(input.password);
    await this.page.getByRole("button", { name: "Create account and join" }).click();
  }

  async signIn(email: string, password: string) {
    await this.page.getByRole("link", { name: "Sign in", exact: true }).click();
    await expect(this.page.getByRole("heading", { name: "Sign in" })).toBeVisible();
    await this.page.getByLabel("Email").fill(email);
    await this.page.getByLabel("Password").fill(password);
    await this.page.getByRole("button", { name: "Sign in" }).click();
  }

  async join(organizationName: string) {
    await this.page.getByRole("button", { name: `Join ${organizationName}` }).click();
  }
}
