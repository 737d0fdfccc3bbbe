import type { Browser, Page } from "@playwright/test";
import { expect, newAccount, test } from "./fixtures/signed-in";
import { RegisterPage } from "./pages/auth-pages";
import { InvitationPage } from "./pages/invitation";
import { MembersPage } from "./pages/members";
import { Shell } from "./pages/shell";

// The app's database is shared by every spec of a run: addresses of our own keep this one independent.
const run = Date.now().toString(36);
const owner = newAccount("Olga Owner");
const newcomer = { name: "Nora Newcomer", email: `nora-${run}@example.com`, password: "newcomer password" };
const existing = { name: "Eve Existing", email: `eve-${run}@example.com`, password: "existing password" };
const stranger = { name: "Sam Stranger", email: `sam-${run}@example.com`, password: "stranger password" };

/** A browser of its own (no cookies shared with the test's page), as the invited person would have. */
async function freshPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  return context.newPage();
}

test.describe
  .serial("invitations", () => {
    // The owner's organization, which every test invites to.
    test.use({ account: owner });
    let link = "";

    test("an owner invites an email as admin and gets the link once, focused, to copy", async ({
      page,
      baseURL,
      signedIn: _,
    }) => {
      const members = new MembersPage(page);
      await members.openInvite();
      link = await members.invite(newcomer.email, "admin");
      expect(link).toMatch(new RegExp(`^${baseURL}/invite/[A-Za-z0-9_-]{43}$`));
      await expect(members.newLink()).toBeFocused();
      await expect(page.getByRole("status").filter({ hasText: "shown only once" })).toContainText(
        `Invitation created for ${newcomer.email} as admin.`,
      );

      await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
      await page.getByRole("button", { name: "Copy link" }).click();
      await expect(page.getByTestId("copy-status")).toHaveText("Link copied to the clipboard.");
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);

      // Shown once: the link is nowhere to be seen again.
      await page.reload();
      await expect(members.newLink()).toHaveCount(0);
      await members.goto();
      await expect(members.pendingInvitation(newcomer.email)).toContainText("admin");
      await expect(members.pendingInvitation(newcomer.email)).toContainText(`Invited by ${owner.name}`);
      await expect(members.pendingInvitation(newcomer.email)).toContainText("expires");
      expect(await page.content()).not.toContain(link);
    });

    test("the newcomer opens the link in a fresh browser, creates an account and lands in the organization as admin", async ({
      browser,
    }) => {
      const page = await freshPage(browser);
      const invitation = new InvitationPage(page);
      await invitation.open(link);
      await expect(invitation.organization()).toHaveText(owner.organizationName);
      await expect(invitation.role()).toHaveText("admin");
      await expect(invitation.email()).toHaveText(newcomer.email);
      await expect(page.getByTestId("invitation-summary")).toContainText(`${owner.name} invited`);

      await page.getByRole("link", { name: "Create an account" }).click();
      await expect(page.getByLabel("Email")).toHaveValue(newcomer.email);
      await expect(page.getByLabel("Email")).not.toBeEditable();
      await page.goBack();
      await invitation.createAccount(newcomer);

      await expect(page.getByTestId("page-title")).toHaveText(owner.organizationName);
      await expect(new Shell(page).activeOrg()).toHaveText(owner.organizationName);
      await expect(page.getByText("you are an admin")).toBeVisible();
      await expect(page.getByRole("status").filter({ hasText: "Welcome to" })).toHaveText(
        `Welcome to ${owner.organizationName}: you joined as an admin.`,
      );
      await new MembersPage(page).goto();
      await expect(page.getByTestId("member-row")).toHaveCount(2);
      await expect(page.getByTestId("member-row").filter({ hasText: newcomer.email })).toContainText("admin");
      await page.context().close();
    });

    test("a link that was used says so, in any browser", async ({ browser }) => {
      const page = await freshPage(browser);
      const invitation = new InvitationPage(page);
      await invitation.open(link);
      await expect(invitation.unavailable()).toHaveAttribute("data-reason", "accepted");
      await expect(
        page.getByRole("heading", { name: "This invitation has already been used" }),
      ).toBeVisible();
      await expect(page.getByRole("alert").filter({ hasText: "ask for a new invitation" })).toBeVisible();
      await page.context().close();
    });

    test("a revoked link stops working at once and says it was revoked", async ({
      page,
      browser,
      signedIn: _,
    }) => {
      const members = new MembersPage(page);
      await members.openInvite();
      const email = `ron-${run}@example.com`;
      const revokedLink = await members.invite(email, "member");

      await members.goto();
      await members.pendingInvitation(email).getByRole("button", { name: "Revoke" }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
      await expect(members.pendingInvitation(email)).toHaveCount(1);
      await members.revoke(email);

      const other = await freshPage(browser);
      await new InvitationPage(other).open(revokedLink);
      await expect(new InvitationPage(other).unavailable()).toHaveAttribute("data-reason", "revoked");
      await expect(other.getByRole("heading", { name: "This invitation was revoked" })).toBeVisible();
      await expect(
        other.getByRole("alert").filter({ hasText: "Ask an owner or admin of the organization" }),
      ).toBeVisible();
      await other.context().close();
    });

    test("someone signed in with another address is told whom the link is for; the invited person signs in from the link and joins", async ({
      page,
      browser,
      signedIn: _,
    }) => {
      // Eve already has an account (and an organization of her own).
      const evePage = await freshPage(browser);
      await new RegisterPage(evePage).goto();
      await new RegisterPage(evePage).register(existing);
      await expect(evePage.getByTestId("page-title")).toBeVisible();
      await evePage.context().close();

      const members = new MembersPage(page);
      await members.openInvite();
      const eveLink = await members.invite(existing.email, "member");

      // Sam opens Eve's link while signed in as himself: nothing is accepted.
      const other = await freshPage(browser);
      await new RegisterPage(other).goto();
      await new RegisterPage(other).register(stranger);
      await expect(other.getByTestId("page-title")).toBeVisible();
      const invitation = new InvitationPage(other);
      await invitation.open(eveLink);
      await expect(
        other.getByRole("alert").filter({
          hasText: `This invitation is for ${existing.email}, and you are signed in as ${stranger.email}.`,
        }),
      ).toBeVisible();
      await expect(other.getByRole("button", { name: `Join ${owner.organizationName}` })).toHaveCount(0);

      // Signing out comes back to the invitation; signing in as Eve comes back again, to join.
      await other.getByRole("button", { name: `Sign out of ${stranger.email}` }).click();
      await expect(other.getByRole("link", { name: "Create an account" })).toBeVisible();
      await invitation.signIn(existing.email, existing.password);
      await expect(invitation.organization()).toHaveText(owner.organizationName);
      await invitation.join(owner.organizationName);
      await expect(other.getByTestId("page-title")).toHaveText(owner.organizationName);
      await expect(other.getByText("you are a member")).toBeVisible();

      // Opening it again: she is in already, and is taken there.
      await invitation.open(eveLink);
      await expect(other.getByTestId("invitation-already-member")).toContainText(
        `You are already a member of ${owner.organizationName}, as member.`,
      );
      await other.getByRole("button", { name: `Go to ${owner.organizationName}` }).click();
      await expect(other.getByTestId("page-title")).toHaveText(owner.organizationName);
      await other.context().close();
    });

    test("a link that was never issued gets a clear page, not an error", async ({ page }) => {
      const response = await page.goto("/invite/not-a-real-token");
      expect(response?.status()).toBe(200);
      await expect(new InvitationPage(page).unavailable()).toHaveAttribute("data-reason", "invalid");
      await expect(page.getByRole("heading", { name: "This invitation link does not work" })).toBeVisible();
    });
  });
