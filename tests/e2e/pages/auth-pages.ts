import { expect, type Page } from "@playwright/test";

export class RegisterPage {
  constructor(private readonly page: Page) {}

  async goto() {
    await this.page.goto("/register");
  }

  /** Fills in the form and sends it, whatever comes of it. */
  async submit(input: { name: string; email: string; password: string; organizationName?: string }) {
    await this.page.getByLabel("Your name").fill(input.name);
    await this.page.getByLabel("Email").fill(input.email);
    await this.page.getByLabel("Password").fill(input.password);
    if (input.organizationName) await this.page.getByLabel("Organization name").fill(input.organizationName);
    await this.page.getByRole("button", { name: "Create account" }).click();
  }

  /** What registering says, the same whether or not the address already had an account. */
  registered() {
    return this.page.getByTestId("registered");
  }

  /** Registers and then signs in with the sign-in form registering leads to, as a new person does. */
  async register(input: { name: string; email: string; password: string; organizationName?: string }) {
    await this.submit(input);
    await expect(this.registered().getByRole("status")).toContainText(`Sign in with ${input.email}`);
    await expect(this.page.getByLabel("Email")).toHaveValue(input.email);
    await this.page.getByLabel("Password").fill(input.password);
    await this.page.getByRole("button", { name: "Sign in" }).click();
    await expect(this.page.getByTestId("page-title")).toBeVisible();
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
