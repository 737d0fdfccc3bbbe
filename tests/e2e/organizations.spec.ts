import { expect, test } from "@playwright/test";
import { LoginPage, RegisterPage } from "./pages/auth-pages";
import { Shell } from "./pages/shell";

const ada = {
  name: "Ada Lovelace",
  email: "ada@example.com",
  password: "analytical engine",
  organizationName: "Ada Labs",
};
const bob = { name: "Bob Babbage", email: "bob@example.com", password: "difference engine" };

test.describe
  .serial("sign-in, organizations and members", () => {
    test("an unauthenticated visitor is sent to the sign-in page, and API routes answer 401 JSON", async ({
      page,
      request,
    }) => {
      await page.goto("/settings/members");
      await expect(page).toHaveURL(/\/login/);
      await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
      const me = await request.get("/api/me");
      expect(me.status()).toBe(401);
      expect(await me.json()).toMatchObject({ error: "Sign in to continue.", code: "unauthorized:auth" });
      const health = await request.get("/api/health");
      expect(health.status()).toBe(200);
      expect(await health.json()).toMatchObject({ status: "ok", database: { status: "ok" } });
    });

    test("registering lands in the new organization as its owner", async ({ page }) => {
      const register = new RegisterPage(page);
      await register.goto();
      await register.register(ada);
      await expect(page.getByTestId("page-title")).toHaveText("Ada Labs");
      await expect(new Shell(page).activeOrg()).toHaveText("Ada Labs");
      await expect(page.getByText("you are an owner")).toBeVisible();
    });

    test("bad registrations explain what is wrong and keep what was typed", async ({ page }) => {
      const register = new RegisterPage(page);
      await register.goto();
      await register.register({ ...ada, organizationName: "" });
      await expect(register.fieldError("email")).toHaveText(/already exists/);
      await expect(page.getByLabel("Your name")).toHaveValue(ada.name);

      await register.register({ ...bob, email: "not-an-email" });
      await expect(register.fieldError("email")).toHaveText(/valid email/);

      await register.register({ ...bob, password: "short" });
      await expect(register.fieldError("password")).toHaveText(/at least 8/);
      await expect(page).toHaveURL(/\/register/);
    });

    test("a wrong password is refused with a clear message", async ({ page }) => {
      await page.goto("/login");
      await page.getByLabel("Email").fill(ada.email);
      await page.getByLabel("Password").fill("not the password");
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect(page.getByRole("alert").filter({ hasText: /do not match/ })).toBeVisible();
    });

    test("a second organization can be created and switched to and from", async ({ page }) => {
      await new LoginPage(page).login(ada.email, ada.password);
      const shell = new Shell(page);
      await shell.createOrganization("Second Org");
      await expect(shell.activeOrg()).toHaveText("Second Org");
      await shell.switchTo("Ada Labs");
      await expect(page.getByTestId("page-title")).toHaveText("Ada Labs");
      await page.reload();
      await expect(shell.activeOrg()).toHaveText("Ada Labs");
    });

    test("an owner adds a member, and adding them twice is refused", async ({ page, browser }) => {
      // Bob registers first: members are added by the email of an existing account.
      const bobContext = await browser.newContext();
      const bobPage = await bobContext.newPage();
      const register = new RegisterPage(bobPage);
      await register.goto();
      await register.register(bob);
      await expect(bobPage.getByTestId("page-title")).toBeVisible();
      await bobContext.close();

      await new LoginPage(page).login(ada.email, ada.password);
      await page.goto("/settings/members");
      await page.getByLabel("Email").fill("ghost@example.com");
      await page.getByRole("button", { name: "Add member" }).click();
      await expect(page.getByTestId("member-email-error")).toHaveText(/No one has registered/);

      await page.getByLabel("Email").fill(bob.email);
      await page.getByRole("button", { name: "Add member" }).click();
      await expect(page.getByRole("status")).toHaveText(/bob@example.com was added as member/);
      await expect(page.getByTestId("member-row")).toHaveCount(2);

      await page.getByLabel("Email").fill(bob.email);
      await page.getByRole("button", { name: "Add member" }).click();
      await expect(page.getByTestId("member-email-error")).toHaveText(/already a member/);
    });

    test("the member sees the organization but none of the admin controls", async ({ page }) => {
      await new LoginPage(page).login(bob.email, bob.password);
      const shell = new Shell(page);
      await shell.switchTo("Ada Labs");
      await expect(page.getByText("you are a member")).toBeVisible();
      await page.goto("/settings/members");
      await expect(page.getByTestId("member-row")).toHaveCount(2);
      await expect(page.getByRole("button", { name: "Add member" })).toHaveCount(0);
      await expect(page.getByRole("button", { name: "Remove" })).toHaveCount(0);
      // Bob's own organization is not Ada's to see.
      await page.getByTestId("org-switcher").first().click();
      await expect(page.getByRole("menuitemradio")).toHaveCount(2);
    });

    test("an owner changes a role, and removes a member only after confirming", async ({ page }) => {
      await new LoginPage(page).login(ada.email, ada.password);
      await page.goto("/settings/members");
      const bobRow = page.getByTestId("member-row").filter({ hasText: bob.email });
      await bobRow.getByLabel(`Role of ${bob.email}`).selectOption("admin");
      await page.reload();
      await expect(bobRow.getByLabel(`Role of ${bob.email}`)).toHaveValue("admin");

      await bobRow.getByRole("button", { name: "Remove" }).click();
      await expect(page.getByRole("dialog")).toContainText(`Remove ${bob.email}?`);
      await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
      await expect(page.getByTestId("member-row")).toHaveCount(2);

      await bobRow.getByRole("button", { name: "Remove" }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Remove" }).click();
      await expect(page.getByTestId("member-row")).toHaveCount(1);
    });

    test("the theme switches to dark and stays after a reload", async ({ page }) => {
      await new LoginPage(page).login(ada.email, ada.password);
      const shell = new Shell(page);
      await shell.setTheme("Dark");
      await expect(page.locator("html")).toHaveClass(/dark/);
      await page.reload();
      await expect(page.locator("html")).toHaveClass(/dark/);
      await shell.setTheme("Light");
      await expect(page.locator("html")).not.toHaveClass(/dark/);
    });

    test("on a phone-width screen the navigation opens from the menu button", async ({ page }) => {
      await page.setViewportSize({ width: 390, height: 844 });
      await new LoginPage(page).login(ada.email, ada.password);
      await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
      await page.getByRole("button", { name: "Open menu" }).click();
      const drawer = page.getByRole("dialog", { name: "Navigation" });
      await drawer.getByRole("link", { name: "Members" }).click();
      await expect(page).toHaveURL(/\/settings\/members/);
      await expect(drawer).toBeHidden();
    });

    test("signing out ends the session", async ({ page }) => {
      await new LoginPage(page).login(ada.email, ada.password);
      await new Shell(page).signOut();
      await page.goto("/");
      await expect(page).toHaveURL(/\/login/);
    });
  });
