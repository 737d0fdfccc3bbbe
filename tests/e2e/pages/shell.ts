import { expect, type Page } from "@playwright/test";

export class Shell {
  constructor(private readonly page: Page) {}

  activeOrg() {
    return this.page.getByTestId("active-org").first();
  }

  async switchTo(orgName: string) {
    await this.page.getByTestId("org-switcher").first().click();
    await this.page.getByRole("menuitemradio", { name: new RegExp(orgName) }).click();
    await expect(this.activeOrg()).toHaveText(orgName);
  }

  async createOrganization(name: string) {
    await this.page.getByTestId("org-switcher").first().click();
    await this.page.getByRole("menuitem", { name: "New organization" }).first().click();
    await this.page.getByLabel("Organization name").fill(name);
    await this.page.getByRole("button", { name: "Create organization" }).click();
    await expect(this.page.getByTestId("page-title")).toHaveText(name);
  }

  /** Opens the user menu; a click that lands before the page is interactive is simply made again. */
  async openUserMenu() {
    await expect(async () => {
      await this.page.getByTestId("user-menu").click();
      await expect(this.page.getByTestId("user-name")).toBeVisible({ timeout: 1_000 });
    }).toPass();
  }

  async setTheme(theme: "Light" | "Dark" | "System") {
    await this.openUserMenu();
    await this.page.getByRole("group", { name: "Theme" }).getByText(theme, { exact: true }).click();
    await expect(this.page.getByRole("radio", { name: theme })).toBeChecked();
    await this.page.keyboard.press("Escape");
  }

  async signOut() {
    await this.openUserMenu();
    await this.page.getByRole("button", { name: "Sign out" }).click();
    await expect(this.page).toHaveURL(/\/login/);
  }
}
