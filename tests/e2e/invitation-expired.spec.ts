import { modelAppPort } from "../../playwright.config";
import { expect, test } from "./fixtures/signed-in";
import { InvitationPage } from "./pages/invitation";
import { MembersPage } from "./pages/members";

// The app whose invitations expire at once (INVITATION_TTL_HOURS=0), so an expired link can be opened for real.
const appUrl = `http://127.0.0.1:${modelAppPort}`;
test.use({ baseURL: appUrl });

test("an expired invitation link gets a clear page that says so and what to do", async ({
  page,
  browser,
  signedIn: _,
}) => {
  const members = new MembersPage(page);
  await members.openInvite();
  const link = await members.invite("late@example.com", "member");

  const invitee = await browser.newContext({ baseURL: appUrl });
  try {
    const late = await invitee.newPage();
    const invitation = new InvitationPage(late);
    await invitation.open(link);
    await expect(invitation.unavailable()).toHaveAttribute("data-reason", "expired");
    await expect(late.getByRole("heading", { name: "This invitation has expired" })).toBeVisible();
    await expect(late.getByRole("link", { name: "Create an account" })).toHaveCount(0);
  } finally {
    await invitee.close();
  }
});
