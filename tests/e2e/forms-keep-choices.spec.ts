import type { Locator, Page } from "@playwright/test";
import { expect, newAccount, test } from "./fixtures/signed-in";
import { IntegrationsPage } from "./pages/integrations";

// Every form of the app, refused once: each field comes back as the person left it (selects, radios, checkboxes,
// dependent fields), and sending it again sends what is shown.
const owner = newAccount("Fiona Forms");

/** A refusal of the form: a field's message or the form's alert. */
function refusal(page: Page): Locator {
  return page.locator('[data-testid$="-error"], [role="alert"]').first();
}

test.describe
  .serial("forms keep every choice after a refusal", () => {
    test.use({ account: owner });

    test("adding a custom server: transport, bearer authentication and every typed field", async ({
      page,
      signedIn: _,
    }) => {
      await page.goto("/integrations/new");
      await page.getByTestId("catalog-custom").click();
      await page.getByLabel("Name").fill("Kept server");
      await page.getByLabel("Transport").selectOption("sse");
      await page.getByLabel("URL").fill("https://mcp.example.com/sse");
      await page.getByLabel("Authentication").selectOption("bearer");
      await page.getByLabel("Timeout (seconds)").fill("45");
      await page.getByRole("button", { name: "Add integration" }).click();
      await expect(page.getByTestId("token-error")).toHaveText("Enter the token.");

      await expect(page.getByLabel("Name")).toHaveValue("Kept server");
      await expect(page.getByLabel("Transport")).toHaveValue("sse");
      await expect(page.getByLabel("URL")).toHaveValue("https://mcp.example.com/sse");
      await expect(page.getByLabel("Authentication")).toHaveValue("bearer");
      await expect(page.getByLabel("Bearer token")).toBeVisible();
      await expect(page.getByLabel("Timeout (seconds)")).toHaveValue("45");

      // What is shown is what is sent: the saved integration has bearer authentication over SSE.
      await page.getByLabel("Bearer token").fill("sekret-token");
      await page.getByRole("button", { name: "Add integration" }).click();
      await expect(page).toHaveURL(/\/integrations\/[0-9a-f-]+/);
      await expect(page.getByLabel("Authentication")).toHaveValue("bearer");
      await expect(page.getByLabel("Bearer token")).toBeVisible();
    });

    test("adding a custom server: custom headers and OAuth fields", async ({ page, signedIn: _ }) => {
      await page.goto("/integrations/new");
      await page.getByTestId("catalog-custom").click();
      await page.getByLabel("Name").fill("Header server");
      await page.getByLabel("Transport").selectOption("sse");
      await page.getByLabel("URL").fill("https://mcp.example.com/sse");
      await page.getByLabel("Authentication").selectOption("headers");
      await page.getByLabel("Headers").fill("not a header line");
      await page.getByRole("button", { name: "Add integration" }).click();
      await expect(page.getByTestId("headers-error")).toBeVisible();
      await expect(page.getByLabel("Transport")).toHaveValue("sse");
      await expect(page.getByLabel("Authentication")).toHaveValue("headers");
      await expect(page.getByLabel("Headers")).toHaveValue("not a header line");

      await page.getByLabel("Authentication").selectOption("oauth");
      await page.getByLabel("Who connects").selectOption("user");
      await page.getByLabel("Scopes (optional)").fill("read write");
      await page.getByLabel("URL").fill("not a url");
      await page.getByRole("button", { name: "Add integration" }).click();
      await expect(page.getByTestId("url-error")).toBeVisible();
      await expect(page.getByLabel("Authentication")).toHaveValue("oauth");
      await expect(page.getByLabel("Who connects")).toHaveValue("user");
      await expect(page.getByLabel("Scopes (optional)")).toHaveValue("read write");
      await expect(page.getByLabel("URL")).toHaveValue("not a url");
    });

    test("adding from the catalog: name and timeout", async ({ page, signedIn: _ }) => {
      await page.goto("/integrations/new");
      await page.getByTestId("catalog-everything").click();
      await page.getByLabel("Name").fill("Everything kept");
      await page.getByLabel("Timeout (seconds)").fill("0");
      await page.getByRole("button", { name: "Add integration" }).click();
      await expect(page.getByTestId("timeoutSeconds-error")).toBeVisible();
      await expect(page.getByLabel("Name")).toHaveValue("Everything kept");
      await expect(page.getByLabel("Timeout (seconds)")).toHaveValue("0");
    });

    test("editing an integration: authentication and headers", async ({ page, signedIn: _ }) => {
      await new IntegrationsPage(page).addCustom({
        name: "Edited server",
        url: "https://mcp.example.com/mcp",
      });
      await page.getByLabel("Authentication").selectOption("headers");
      await page.getByLabel("Headers").fill("X-Key no colon");
      await page.getByLabel("Timeout (seconds)").fill("12");
      await page.getByRole("button", { name: "Save changes" }).click();
      await expect(refusal(page)).toBeVisible();
      await expect(page.getByLabel("Authentication")).toHaveValue("headers");
      await expect(page.getByLabel("Headers")).toHaveValue("X-Key no colon");
      await expect(page.getByLabel("Timeout (seconds)")).toHaveValue("12");

      // A timeout of 0 is refused once, beside its field.
      await page.getByLabel("Authentication").selectOption("none");
      await page.getByLabel("Timeout (seconds)").fill("0");
      await page.getByRole("button", { name: "Save changes" }).click();
      await expect(page.getByTestId("timeoutSeconds-error")).toBeVisible();
      await expect(page.getByText("Use a timeout of at least 1 second.")).toHaveCount(1);

      // A saved change is tested at once: the page says whether the server answers now.
      await page.goto(page.url().replace(/\?.*$/, ""));
      await expect(page.getByTestId("test-result")).toHaveCount(0);
      await page.getByLabel("Timeout (seconds)").fill("5");
      await page.getByRole("button", { name: "Save changes" }).click();
      await expect(page.getByTestId("test-result")).toBeVisible({ timeout: 20_000 });
    });

    test("an agent: radios, checkboxes and text", async ({ page, signedIn: _ }) => {
      await page.goto("/agents/new");
      const form = page.getByRole("form", { name: "Agent" });
      await form.getByLabel("Name", { exact: true }).fill("");
      await form.getByLabel("Instructions").fill("Answer briefly.");
      await form.getByLabel("Model").fill("model-x");
      const integrations = form.getByRole("group", { name: "Integrations" });
      await integrations.getByLabel("Only these").check();
      await integrations.getByLabel("Edited server").check();
      const builtins = form.getByRole("group", { name: "Built-in tools" }).getByRole("checkbox");
      const builtinStates = await Promise.all((await builtins.all()).map((box) => box.isChecked()));
      await builtins.first().setChecked(!builtinStates[0]);
      await expect(form.getByLabel("Ask before tools that may change things")).toBeChecked();
      await form.getByLabel("Ask before every tool").check();
      await form.getByRole("button", { name: "Create agent" }).click();
      await expect(refusal(page)).toBeVisible();

      await expect(form.getByLabel("Instructions")).toHaveValue("Answer briefly.");
      await expect(form.getByLabel("Model")).toHaveValue("model-x");
      await expect(integrations.getByLabel("Only these")).toBeChecked();
      await expect(integrations.getByLabel("Edited server")).toBeChecked();
      await expect(builtins.first()).toBeChecked({ checked: !builtinStates[0] });
      await expect(form.getByLabel("Ask before every tool")).toBeChecked();
    });

    test("a capability: name parts, description, schema and code", async ({ page, signedIn: _ }) => {
      await page.goto("/capabilities/new");
      const form = page.getByRole("form", { name: "Capability" });
      await form.getByLabel("Namespace").fill("Bad Namespace!");
      await form.getByLabel("Action").fill("kept");
      await form.getByLabel("Description").fill("Kept description");
      await form.getByLabel("Code").fill("return 'kept';");
      await form.getByRole("button", { name: "Create capability" }).click();
      await expect(refusal(page)).toBeVisible();
      await expect(form.getByLabel("Namespace")).toHaveValue("Bad Namespace!");
      await expect(form.getByLabel("Action")).toHaveValue("kept");
      await expect(form.getByLabel("Description")).toHaveValue("Kept description");
      await expect(form.getByLabel("Code")).toHaveValue("return 'kept';");
    });

    test("an API key: expiry, access, scope radios and checkboxes", async ({ page, signedIn: _ }) => {
      await page.goto("/settings/api-keys");
      await page.getByLabel("Name").fill("Kept key");
      await page.getByLabel("Expires").selectOption("date");
      await page.getByLabel("Expiry date").fill("2020-01-01");
      await page.getByLabel("May use").selectOption("chosen");
      const scope = page.getByTestId("key-scope");
      const integrations = scope.getByRole("group", { name: "Integrations" });
      await integrations.getByLabel("Only these").check();
      await integrations.getByLabel("Edited server").check();
      await scope.getByLabel(/^Built-in knowledge tools/).uncheck();
      await page.getByLabel(/Gateway lists only/).check();
      await page.getByRole("button", { name: "Create key" }).click();
      await expect(refusal(page)).toBeVisible();

      await expect(page.getByLabel("Name")).toHaveValue("Kept key");
      await expect(page.getByLabel("Expires")).toHaveValue("date");
      await expect(page.getByLabel("Expiry date")).toHaveValue("2020-01-01");
      await expect(page.getByLabel("May use")).toHaveValue("chosen");
      await expect(integrations.getByLabel("Only these")).toBeChecked();
      await expect(integrations.getByLabel("Edited server")).toBeChecked();
      await expect(scope.getByLabel(/^Built-in knowledge tools/)).not.toBeChecked();
      await expect(page.getByLabel(/Gateway lists only/)).toBeChecked();
      await expect(page.getByTestId("new-api-key")).toHaveCount(0);
    });

    test("an invitation: email and role", async ({ page, signedIn: _ }) => {
      await page.goto("/settings/members/invite");
      await page.getByLabel("Email").fill("not-an-address");
      await page.getByLabel("Role").selectOption("admin");
      await page.getByRole("button", { name: "Create invitation" }).click();
      await expect(page.getByTestId("invite-email-error")).toBeVisible();
      await expect(page.getByLabel("Email")).toHaveValue("not-an-address");
      await expect(page.getByLabel("Role")).toHaveValue("admin");
    });

    test("a knowledge node: name, knowledge and metadata", async ({ page, signedIn: _ }) => {
      await page.goto("/knowledge");
      await page.getByLabel("Name").first().fill("kept-node");
      await page.getByLabel("Knowledge").first().fill("Kept content.");
      await page.getByLabel("Metadata (JSON, optional)").first().fill("{not json");
      await page.getByRole("button", { name: "Add node" }).click();
      await expect(page.getByTestId("node-metadata-new-error")).toBeVisible();
      await expect(page.getByLabel("Name").first()).toHaveValue("kept-node");
      await expect(page.getByLabel("Knowledge").first()).toHaveValue("Kept content.");
      await expect(page.getByLabel("Metadata (JSON, optional)").first()).toHaveValue("{not json");
    });

    test("the OAuth client policy: both switches and the hosts", async ({ page, signedIn: _ }) => {
      await page.goto("/settings/connected-apps");
      const form = page.getByRole("form", { name: "OAuth clients" });
      await form.getByLabel(/Members may connect apps/).uncheck();
      await form.getByLabel(/Only apps that send people back/).check();
      await form.getByLabel("Allowed hosts").fill("https://not a host/");
      await form.getByRole("button", { name: "Save" }).click();
      await expect(refusal(page)).toContainText("Each allowed host is a host name");
      await expect(form.getByLabel(/Members may connect apps/)).not.toBeChecked();
      await expect(form.getByLabel(/Only apps that send people back/)).toBeChecked();
      await expect(form.getByLabel("Allowed hosts")).toHaveValue("https://not a host/");
    });

    test("changing the password: the new password fields", async ({ page, signedIn: _ }) => {
      await page.goto("/settings/account");
      const fields = page.locator("form input[type=password]");
      const count = await fields.count();
      for (let index = 0; index < count; index++) await fields.nth(index).fill(`wrong ${index}`);
      await page.getByRole("button", { name: /Change password/ }).click();
      await expect(refusal(page)).toBeVisible();
      for (let index = 0; index < count; index++)
        await expect(fields.nth(index)).toHaveValue(`wrong ${index}`);
    });

    test("a new organization: its name", async ({ page, signedIn: _ }) => {
      await page.goto("/organizations/new");
      await page.getByLabel(/name/i).first().fill(" ");
      await page.getByRole("button", { name: /Create/ }).click();
      await expect(refusal(page)).toBeVisible();
      await expect(page.getByLabel(/name/i).first()).toHaveValue(" ");
    });
  });

test("registering and signing in keep what was typed", async ({ page }) => {
  await page.goto("/register");
  await page.getByLabel("Your name").fill("Kept Person");
  await page.getByLabel("Email").fill("kept@example.com");
  await page.getByLabel("Password").fill("short");
  await page.getByLabel("Organization name").fill("Kept Org");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByTestId("password-error")).toBeVisible();
  await expect(page.getByLabel("Your name")).toHaveValue("Kept Person");
  await expect(page.getByLabel("Email")).toHaveValue("kept@example.com");
  await expect(page.getByLabel("Password")).toHaveValue("short");
  await expect(page.getByLabel("Organization name")).toHaveValue("Kept Org");

  // Once registered, the card is the sign-in form and says so.
  await page.getByLabel("Email").fill(`kept-${Date.now()}@example.com`);
  await page.getByLabel("Password").fill("long enough password");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByTestId("registered")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sign in");
  await expect(page.getByRole("heading", { name: "Create an account" })).toHaveCount(0);

  await page.goto("/login");
  await page.getByLabel("Email").fill("nobody-kept@example.com");
  await page.getByLabel("Password").fill("not the password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(refusal(page)).toBeVisible();
  await expect(page.getByLabel("Email")).toHaveValue("nobody-kept@example.com");
  await expect(page.getByLabel("Password")).toHaveValue("not the password");
});
