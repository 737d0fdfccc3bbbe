import { expect, test } from "@playwright/test";
import { LoginPage, RegisterPage } from "./pages/auth-pages";
import { MembersPage } from "./pages/members";
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
      await register.submit({ ...bob, email: "not-an-email" });
      await expect(register.fieldError("email")).toHaveText(/valid email/);
      await expect(page.getByLabel("Your name")).toHaveValue(bob.name);

      await register.submit({ ...bob, password: "short" });
      await expect(register.fieldError("password")).toHaveText(/at least 8/);
      await expect(page).toHaveURL(/\/register/);
    });

    test("registering a taken address answers as for a new one, and signs nobody in", async ({ page }) => {
      const register = new RegisterPage(page);
      await register.goto();
      await register.submit({ ...ada, password: "an intruder's password", organizationName: "" });
      await expect(register.registered().getByRole("status")).toContainText(
        `Done. Sign in with ${ada.email} and the password you just chose.`,
      );
      await page.getByLabel("Password").fill("an intruder's password");
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect(page.getByRole("alert").filter({ hasText: /do not match/ })).toBeVisible();
      await page.goto("/");
      await expect(page).toHaveURL(/\/login/);
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

      // By keyboard: the switcher names the current organization, opens on it, and the arrows move.
      const switcher = page.getByRole("button", {
        name: /^Organization: ?Ada Labs ?owner ?\. ?Switch organization$/,
      });
      await switcher.focus();
      await page.keyboard.press("Enter");
      await expect(page.getByRole("menuitemradio", { name: /Ada Labs/ })).toBeFocused();
      await page.keyboard.press("Escape");
      await expect(switcher).toBeFocused();
      // The menu opens on the current organization; the next one is the organization made second.
      await page.keyboard.press("ArrowDown");
      await expect(page.getByRole("menuitemradio", { name: /Ada Labs/ })).toBeFocused();
      await page.keyboard.press("ArrowDown");
      await expect(page.getByRole("menuitemradio", { name: /Second Org/ })).toBeFocused();
      await page.keyboard.press("End");
      await expect(page.getByRole("menuitem", { name: "New organization" })).toBeFocused();
      await page.keyboard.press("Home");
      await page.keyboard.press("ArrowDown");
      await page.keyboard.press("Enter");
      await expect(shell.activeOrg()).toHaveText("Second Org");
      await shell.switchTo("Ada Labs");
    });

    test("an owner adds a member by invitation, which reads the same for any address, and inviting them again is refused", async ({
      page,
      browser,
    }) => {
      // Bob has an account already; a ghost has none. Inviting either reads the same.
      const bobContext = await browser.newContext();
      const bobPage = await bobContext.newPage();
      await new RegisterPage(bobPage).goto();
      await new RegisterPage(bobPage).register(bob);

      await new LoginPage(page).login(ada.email, ada.password);
      const members = new MembersPage(page);
      await members.openInvite();
      await members.invite("ghost@example.com", "member");
      await expect(page.getByRole("status").filter({ hasText: "shown only once" })).toContainText(
        "Invitation created for ghost@example.com as member.",
      );
      await members.openInvite();
      const link = await members.invite(bob.email, "member");
      await expect(page.getByRole("status").filter({ hasText: "shown only once" })).toContainText(
        `Invitation created for ${bob.email} as member.`,
      );
      // Nobody joins without accepting.
      await members.goto();
      await expect(page.getByTestId("member-row")).toHaveCount(1);
      await expect(members.pendingInvitation(bob.email)).toHaveCount(1);

      await bobPage.goto(link);
      await bobPage.getByRole("button", { name: "Join Ada Labs" }).click();
      await expect(bobPage.getByTestId("page-title")).toHaveText("Ada Labs");
      await bobContext.close();

      await members.goto();
      await expect(page.getByTestId("member-row")).toHaveCount(2);
      await members.openInvite();
      await page.getByLabel("Email").fill(bob.email);
      await page.getByRole("button", { name: "Create invitation" }).click();
      await expect(page.getByTestId("invite-email-error")).toHaveText(/already a member/);
    });

    test("the member sees the organization but none of the admin controls", async ({ page }) => {
      await new LoginPage(page).login(bob.email, bob.password);
      const shell = new Shell(page);
      await shell.switchTo("Ada Labs");
      await expect(page.getByText("you are a member")).toBeVisible();
      await page.goto("/settings/members");
      await expect(page.getByTestId("member-row")).toHaveCount(2);
      await expect(page.getByRole("link", { name: "Invite people" })).toHaveCount(0);
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

    test("signing out in one browser ends the session in every other one", async ({ page, browser }) => {
      await new LoginPage(page).login(ada.email, ada.password);
      const otherContext = await browser.newContext();
      const other = await otherContext.newPage();
      await new LoginPage(other).login(ada.email, ada.password);

      await new Shell(page).signOut();
      await page.goto("/");
      await expect(page).toHaveURL(/\/login/);
      await other.goto("/settings/members");
      await expect(other).toHaveURL(/\/login/);
      await otherContext.close();
    });

    test("a new password signs out every other browser, and this one stays signed in with it", async ({
      page,
      browser,
    }) => {
      const otherContext = await browser.newContext();
      const other = await otherContext.newPage();
      await new LoginPage(other).login(ada.email, ada.password);

      await new LoginPage(page).login(ada.email, ada.password);
      await page.goto("/settings/account");
      await page.getByLabel("Current password").fill(ada.password);
      await page.getByLabel("New password").fill("a brand new engine");
      await page.getByRole("button", { name: "Change password" }).click();
      await expect(page.getByRole("status").filter({ hasText: "password was changed" })).toBeVisible();

      await other.goto("/");
      await expect(other).toHaveURL(/\/login/);
      await otherContext.close();
      // This browser signed in again with the new password as it was set.
      await page.goto("/");
      await expect(page.getByTestId("page-title")).toHaveText("Ada Labs");
    });
  });
