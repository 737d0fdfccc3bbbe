import { expect, test } from "@playwright/test";
import { ssoAppPort } from "../../playwright.config";
import { LoopbackRedirect, pendingAuthorization } from "./fixtures/oauth-client";
import { RegisterPage } from "./pages/auth-pages";
import { ConsentPage } from "./pages/consent";
import { InvitationPage } from "./pages/invitation";
import { MembersPage } from "./pages/members";
import { Shell } from "./pages/shell";
import { SsoSignIn } from "./pages/sso";

// The app configured with "Test SSO": Auth.js talking to a real OpenID provider (tests/fixtures/oidc/provider.ts).
const appUrl = `http://127.0.0.1:${ssoAppPort}`;
test.use({ baseURL: appUrl });

// The provider's account "grace.hopper" is grace.hopper@example.com, verified, named "Grace Hopper".
const grace = { login: "grace.hopper", name: "Grace Hopper", email: "grace.hopper@example.com" };
const mara = {
  name: "Mara Matched",
  email: "mara@example.com",
  password: "matched by email",
  organizationName: "Matched Co",
};

test.describe
  .serial("single sign-on through an OpenID Connect provider", () => {
    test("a new person signs in with Test SSO and gets an account and an organization of their own", async ({
      page,
    }) => {
      await new SsoSignIn(page).signIn(grace.login);

      await expect(page).toHaveURL(`${appUrl}/`);
      await expect(page.getByTestId("page-title")).toHaveText("Grace Hopper's organization");
      await expect(new Shell(page).activeOrg()).toHaveText("Grace Hopper's organization");
      await expect(page.getByText("you are an owner")).toBeVisible();
      await new Shell(page).openUserMenu();
      await expect(page.getByTestId("user-name")).toHaveText(grace.name);
      await expect(page.getByText(grace.email)).toBeVisible();
    });

    test("a person who registered with a password and signs in with Test SSO is the same account", async ({
      page,
      browser,
    }) => {
      const register = new RegisterPage(page);
      await register.goto();
      await register.register(mara);
      await expect(page.getByTestId("page-title")).toHaveText("Matched Co");
      await new Shell(page).signOut();

      // The provider's "mara" has the verified email mara@example.com and the name "Mara".
      await new SsoSignIn(page).signIn("mara");
      await expect(page.getByTestId("page-title")).toHaveText("Matched Co");
      await new Shell(page).openUserMenu();
      await expect(page.getByTestId("user-name")).toHaveText(mara.name);
      await page.keyboard.press("Escape");
      // Her one organization, the one she created when registering: no new one was made for the sign-in.
      await page.getByTestId("org-switcher").first().click();
      await expect(page.getByRole("menuitemradio")).toHaveCount(1);
      await expect(page.getByRole("menuitemradio")).toContainText("Matched Co");

      // The platform's users (Grace, the first account, is superadmin): one account with that email.
      const adminContext = await browser.newContext({ baseURL: appUrl });
      try {
        const admin = await adminContext.newPage();
        await new SsoSignIn(admin).signIn(grace.login);
        await admin.goto("/admin/users?q=mara");
        await expect(admin.getByTestId("user-row")).toHaveCount(1);
        await expect(admin.getByTestId("user-row")).toContainText(mara.email);
        await expect(admin.getByTestId("user-row")).toContainText("Mara Matched · Matched Co (owner)");
        await admin.goto("/admin/users");
        await expect(admin.getByTestId("user-row")).toHaveCount(2);
      } finally {
        await adminContext.close();
      }
    });

    test("signing out and in again with Test SSO returns to the same account", async ({ page }) => {
      const sso = new SsoSignIn(page);
      await sso.signIn(grace.login);
      await expect(page.getByTestId("page-title")).toHaveText("Grace Hopper's organization");
      await new Shell(page).signOut();

      // The provider remembers this browser and its consent, so the second sign-in shows none of its pages.
      const providerPages: string[] = [];
      page.on("framenavigated", (frame) => {
        if (frame === page.mainFrame() && frame.url().includes("/interaction/"))
          providerPages.push(frame.url());
      });
      await sso.start();
      await expect(page).toHaveURL(`${appUrl}/`);
      await expect(page.getByTestId("page-title")).toHaveText("Grace Hopper's organization");
      expect(providerPages).toEqual([]);
      await new Shell(page).openUserMenu();
      await expect(page.getByTestId("user-name")).toHaveText(grace.name);
      await page.keyboard.press("Escape");

      // Still one account for her, and one organization.
      await page.goto("/admin/users?q=grace");
      await expect(page.getByTestId("user-row")).toHaveCount(1);
      await expect(page.getByTestId("user-row")).toContainText(
        "Grace Hopper · Grace Hopper's organization (owner)",
      );
    });

    test("a sign-in whose email the provider has not verified is refused and changes nothing", async ({
      page,
    }) => {
      const sso = new SsoSignIn(page);
      await sso.start();
      // Same address as Mara's account, but the provider says it is not verified: no way into her account.
      await sso.signInAtProvider(`unverified:${mara.email}`);
      await sso.allow();
      await expect(page).toHaveURL(/\/login\?error=AccessDenied/);
      await expect(
        page.getByRole("alert").filter({ hasText: "That sign-in did not work. Try again." }),
      ).toBeVisible();
      await page.goto("/");
      await expect(page).toHaveURL(/\/login/);

      // Nor does an unverified address open a new account (a fresh browser, so the provider asks again).
      await page.context().clearCookies();
      await sso.start();
      await sso.signInAtProvider("unverified:newcomer");
      await sso.allow();
      await expect(page).toHaveURL(/\/login\?error=AccessDenied/);

      await page.context().clearCookies();
      await sso.signIn(grace.login);
      await page.goto("/admin/users");
      await expect(page.getByTestId("user-row")).toHaveCount(2);
      await expect(page.getByText("newcomer@example.com")).toHaveCount(0);
    });

    test("an invited person signs in with Test SSO and lands in the inviting organization, with no other", async ({
      page,
      browser,
    }) => {
      await new SsoSignIn(page).signIn(grace.login);
      const members = new MembersPage(page);
      await members.openInvite();
      const link = await members.invite("ivy@example.com", "member");

      const invitee = await browser.newContext({ baseURL: appUrl });
      try {
        const ivy = await invitee.newPage();
        const invitation = new InvitationPage(ivy);
        await invitation.open(link);
        await expect(invitation.organization()).toHaveText("Grace Hopper's organization");
        await ivy.getByRole("link", { name: "Sign in", exact: true }).click();
        const sso = new SsoSignIn(ivy);
        await ivy.getByRole("button", { name: "Continue with Test SSO" }).click();
        await sso.signInAtProvider("ivy");
        await sso.allow();
        await expect(ivy).toHaveURL(new URL(link).pathname);
        await ivy.getByRole("button", { name: "Join Grace Hopper's organization" }).click();
        await expect(ivy).toHaveURL(/\/\?joined=/);
        await expect(ivy.getByTestId("page-title")).toHaveText("Grace Hopper's organization");
        await expect(ivy.getByText("you joined as a member")).toBeVisible();
        await ivy.getByTestId("org-switcher").first().click();
        await expect(ivy.getByRole("menuitemradio")).toHaveCount(1);
      } finally {
        await invitee.close();
      }
      await members.goto();
      await expect(page.getByText("ivy@example.com").first()).toBeVisible();
      await expect(members.pendingInvitation("ivy@example.com")).toHaveCount(0);
    });
  });

test("an MCP client's authorization signs the person in with Test SSO, then asks their consent", async ({
  browser,
  request,
}) => {
  const redirect = await new LoopbackRedirect().start();
  const context = await browser.newContext({ baseURL: appUrl });
  try {
    const tab = await context.newPage();
    const consentPath = await pendingAuthorization(request, {
      name: "SSO client",
      redirectUri: redirect.uri,
    });
    await tab.goto(consentPath);
    await expect(tab).toHaveURL(/\/login\?callbackUrl=%2Foauth%2Fconsent/);
    await tab.getByRole("button", { name: "Continue with Test SSO" }).click();
    const sso = new SsoSignIn(tab);
    await sso.signInAtProvider("lin.sso");
    await sso.allow();
    const consent = new ConsentPage(tab);
    await consent.shown("SSO client");
    const back = redirect.next();
    await consent.allow();
    const answer = await back;
    expect(answer.searchParams.get("code")).toMatch(/^sbo_ac_/);
    expect(answer.searchParams.get("iss")).toBe(appUrl);
  } finally {
    await context.close();
    await redirect.stop();
  }
});
