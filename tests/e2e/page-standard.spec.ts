import { LoopbackRedirect, pendingAuthorization } from "./fixtures/oauth-client";
import { expect, newAccount, test } from "./fixtures/signed-in";
import { checkPage, inEachViewportAndScheme } from "./page-check";
import { LoginPage } from "./pages/auth-pages";
import { ConsentPage } from "./pages/consent";
import { IntegrationsPage } from "./pages/integrations";

// Every page of an organization with something on it, at a laptop's and a phone's width, light and dark:
// nothing wider than the window, and no serious or critical accessibility violation.
const owner = newAccount("Paula Pages");
const paths: string[] = [];
const signedOutPaths = ["/login", "/register", "/invite/not-a-valid-token", "/no-such-page"];
const missingPaths = ["/no-such-page", "/integrations/00000000-0000-4000-8000-000000000000"];

test.describe
  .serial("every page meets the standard", () => {
    // The first test fills the owner's organization; the others sign in to it at each width and colour scheme.
    test.use({ account: owner });

    test("an organization with something on every page", async ({ page, request, signedIn: _ }) => {
      await new IntegrationsPage(page).addFromCatalog("everything");
      const integration = new URL(page.url()).pathname;

      await page.goto("/chat");
      await page.getByRole("button", { name: "New conversation" }).click();
      await expect(page).toHaveURL(/\/chat\/[0-9a-f-]+$/);
      const input = page.getByLabel("Message", { exact: true });
      await input.fill(`/call everything_echo {"message": "a long line: ${"x".repeat(400)}"}`);
      await input.press("Enter");
      await expect(page.getByTestId("tool-call")).toContainText("done");
      const conversation = new URL(page.url()).pathname;

      await page.goto("/capabilities/new");
      const form = page.getByRole("form", { name: "Capability" });
      await form.getByLabel("Namespace").fill("pages");
      await form.getByLabel("Action").fill("echo");
      await form.getByLabel("Description").fill("Echoes through the Everything server");
      await form
        .getByLabel("Code")
        .fill("return await tools.call('everything_echo', { message: 'x'.repeat(300) });");
      await form.getByRole("button", { name: "Create capability" }).click();
      await expect(page).toHaveURL(/\/capabilities$/);
      await page.getByTestId("capability-row").first().getByRole("link").first().click();
      await expect(page).toHaveURL(/\/capabilities\/[0-9a-f-]+$/);
      const capability = new URL(page.url()).pathname;

      await page.goto("/agents");
      await page.getByTestId("agent-row").first().getByRole("link").first().click();
      const agent = new URL(page.url()).pathname;

      // An app connected by signing in, for Connected apps.
      const redirect = await new LoopbackRedirect().start();
      try {
        await page.goto(
          await pendingAuthorization(request, { name: "Listed client", redirectUri: redirect.uri }),
        );
        const back = redirect.next();
        await new ConsentPage(page).allow();
        expect((await back).searchParams.get("code")).toBeTruthy();
        await page.waitForURL(/^http:\/\/127\.0\.0\.1:\d+\/callback/);
      } finally {
        await redirect.stop();
      }

      paths.push(
        "/",
        "/chat",
        conversation,
        "/agents",
        agent,
        "/agents/new",
        "/integrations",
        "/integrations/new",
        integration,
        "/capabilities",
        capability,
        "/capabilities/new",
        "/knowledge",
        "/api-reference",
        "/connect",
        "/settings/members",
        "/settings/members/invite",
        "/settings/api-keys",
        "/settings/connected-apps",
        "/settings/models",
        "/settings/account",
        "/admin",
        "/organizations/new",
      );
      expect(paths).not.toContain(undefined);
    });

    inEachViewportAndScheme(({ viewport, colorScheme }) => {
      test(`at ${viewport.width}×${viewport.height}, ${colorScheme}`, async ({
        browser,
        baseURL,
        request,
      }) => {
        test.setTimeout(300_000);
        const context = await browser.newContext({ viewport, colorScheme, baseURL });
        const page = await context.newPage();
        const problems: string[] = [];
        // Signed out first: the pages a visitor meets, and an invitation link that is not valid.
        for (const path of signedOutPaths) await checkPage(page, path, viewport.width, colorScheme, problems);
        await new LoginPage(page).login(owner.email, owner.password);
        // The consent page of an authorization request made now (they last minutes).
        const consent = await pendingAuthorization(request);
        for (const path of [...paths, consent, ...missingPaths])
          await checkPage(page, path, viewport.width, colorScheme, problems);
        await context.close();
        expect(problems).toEqual([]);
      });
    });
  });
