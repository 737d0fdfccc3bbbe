import { expect, type Page } from "@playwright/test";

/** Members and invitations, as an owner or admin sees them. */
export class MembersPage {
  constructor(private readonly page: Page) {}

  async goto() {
    await this.page.goto("/settings/members");
  }

  /** Opens "Invite people" from the members page, the way a person finds it. */
  async openInvite() {
    await this.goto();
    await this.page.getByRole("link", { name: "Invite people" }).click();
    await expect(this.page.getByRole("heading", { name: "Invite people" })).toBeVisible();
  }

  /** Creates an invitation and returns the link shown once. */
  async invite(email: string, role: "member" | "admin" | "owner"): Promise<string> {
    await this.page.getByLabel("Email").fill(email);
    await this.page.getByLabel("Role").selectOption(role);
    await this.page.getByRole("button", { name: "Create invitation" }).click();
    await expect(this.newLink()).toBeVisible();
    return this.newLink().inputValue();
  }

  newLink() {
    return this.page.getByTestId("invitation-link");
  }

  pendingInvitation(email: string) {
    return this.page.getByTestId("invitation-row").filter({ hasText: email });
  }

  async revoke(email: string) {
    await this.pendingInvitation(email).getByRole("button", { name: "Revoke" }).click();
    const dialog = this.page.getByRole("dialog");
    await expect(dialog).toContainText(`Revoke the invitation for ${email}?`);
    await dialog.getByRole("button", { name: "Revoke" }).click();
    await expect(this.pendingInvitation(email)).toHaveCount(0);
  }
}
