import { expect, type Page } from "@playwright/test";

export class RegisterPage {
  constructor(private readonly page: Page) {}

  async goto() {
    await this.page.goto("/register");
  }

  async register(input: { name: string; email: string; password: string; organizationName?: string }) {
    await this.page.getByLabel("Your name").fill(input.name);
    await this.page.getByLabel("Email").fill(input.email);
    await this.page.getByLabel("Password").fill(input.password);
    if (input.organizationName) await this.page.getByLabel("Organization name").fill(input.organizationName);
    await this.page.getByRole("button", { name: "Create account" }).click();
  }

  fieldError(field: "name" | "email" | "password") {
    return this.page.getByTestId(`${field}-error`);
  }
}

export class LoginPage {
  constructor(private readonly page: Page) {}

  async login(email: string, password: string) {
    await this.page.goto("/login");
    await this.page.getByLabel("Email").fill(email);
    await this.page.getByLabel("Password").fill(password);
    await this.page.getByRole("button", { name: "Sign in" }).click();
    await expect(this.page.getByTestId("page-title")).toBeVisible();
  }
}
