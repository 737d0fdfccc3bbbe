import { expect, type Page } from "@playwright/test";

/** Single sign-on from Switchboard's sign-in page through the test OpenID provider (tests/fixtures/oidc). */
export class SsoSignIn {
  constructor(
    private readonly page: Page,
    private readonly providerName = "Test SSO",
  ) {}

  /** Clicks the provider's button on /login; the browser goes to the provider (or straight back, if it remembers). */
  async start() {
    await this.page.goto("/login");
    await this.page.getByRole("button", { name: `Continue with ${this.providerName}` }).click();
  }

  /** The provider's sign-in form: any login is an account there. */
  async signInAtProvider(login: string) {
    await expect(this.page).toHaveTitle("Test identity provider: sign in");
    await this.page.getByLabel("Login").fill(login);
    await this.page.getByRole("button", { name: "Sign in" }).click();
  }

  /** The provider's consent page, shown the first time a provider session signs in to Switchboard. */
  async allow() {
    await expect(this.page).toHaveTitle("Test identity provider: consent");
    await this.page.getByRole("button", { name: "Allow" }).click();
  }

  /** The whole first sign-in of a browser: button, provider's form, consent; lands in the app. */
  async signIn(login: string) {
    await this.start();
    await this.signInAtProvider(login);
    await this.allow();
    await expect(this.page.getByTestId("page-title")).toBeVisible();
  }
}
