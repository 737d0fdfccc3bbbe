import { expect, type Page } from "@playwright/test";

export class IntegrationsPage {
  constructor(private readonly page: Page) {}

  async addFromCatalog(key: string) {
    await this.page.goto("/integrations/new");
    await this.page.getByTestId(`catalog-${key}`).click();
    await this.page.getByRole("button", { name: "Add integration" }).click();
    await expect(this.page).toHaveURL(/\/integrations\/[0-9a-f-]+/);
  }

  async addCustom(input: { name: string; url: string; timeoutSeconds?: number }) {
    await this.page.goto("/integrations/new");
    await this.page.getByTestId("catalog-custom").click();
    await this.page.getByLabel("Name").fill(input.name);
    await this.page.getByLabel("URL").fill(input.url);
    await this.page.getByLabel("Timeout (seconds)").fill(String(input.timeoutSeconds ?? 3));
    await this.page.getByRole("button", { name: "Add integration" }).click();
    await expect(this.page).toHaveURL(/\/integrations\/[0-9a-f-]+/);
  }

  testResult() {
    return this.page.getByTestId("test-result");
  }

  async runTool(name: string, args: Record<string, string>) {
    await this.page.getByLabel("Tool", { exact: true }).selectOption(name);
    for (const [field, value] of Object.entries(args)) await this.page.locator(`#arg-${field}`).fill(value);
    await this.page.getByRole("button", { name: "Run tool" }).click();
    return this.page.getByTestId("tool-result");
  }
}
