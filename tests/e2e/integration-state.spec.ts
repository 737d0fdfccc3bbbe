import { modelAppPort } from "../../playwright.config";
import { type RunningFaultServer, startFaultServer } from "../fixtures/mcp/start-fixture";
import { expect, newAccount, test } from "./fixtures/signed-in";
import { checkPage, inEachViewportAndScheme } from "./page-check";
import { LoginPage } from "./pages/auth-pages";
import { IntegrationsPage } from "./pages/integrations";

// The app that may reach loopback addresses, where the fault server runs.
test.use({ baseURL: `http://127.0.0.1:${modelAppPort}` });

let fault: RunningFaultServer;
test.beforeAll(async () => {
  fault = await startFaultServer();
});
test.afterAll(async () => {
  await fault?.stop();
});

const owner = newAccount("Stella State");
let integrationPath = "";

test.describe
  .serial("an integration's state", () => {
    test.use({ account: owner });

    test("shows on its page, the list and the dashboard, with its cause and since when, and comes back by itself", async ({
      page,
      signedIn: _,
    }) => {
      const integrations = new IntegrationsPage(page);
      await integrations.addCustom({ name: "Flaky", url: fault.url, timeoutSeconds: 3 });
      integrationPath = new URL(page.url()).pathname;
      await expect(integrations.testResult()).toHaveText(/Connected in \d+ ms/);
      await expect(page.getByTestId("integration-status")).toHaveText("Healthy");
      await expect(page.getByTestId("integration-state")).toHaveText(
        /^Healthy since \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC: answering\.$/,
      );

      // The server goes away: the calls say why, and so does the integration, everywhere.
      await fault.down();
      for (let i = 0; i < 2; i++) {
        const result = await integrations.runTool("echo", { message: "anyone there?" });
        await expect(result).toContainText(
          /Flaky is unavailable\. Could not connect to 127\.0\.0\.1:\d+: connection refused\./,
        );
      }
      await page.reload();
      await expect(page.getByTestId("integration-status")).toHaveText("Failing");
      await expect(page.getByTestId("integration-state")).toHaveText(
        /^Failing since .* UTC: connection refused\.$/,
      );

      await page.goto("/integrations");
      const row = page.getByTestId("integration-row").filter({ hasText: "Flaky" });
      await expect(row.getByTestId("integration-status")).toHaveText("Failing");
      await expect(row.getByTestId("integration-state")).toHaveText(
        /^Failing since .* UTC: connection refused\.$/,
      );

      await page.goto("/admin");
      await expect(page.getByTestId("dashboard-integration").filter({ hasText: "Flaky" })).toContainText(
        /Failing since .* UTC: connection refused\./,
      );
      await page.screenshot({ path: test.info().outputPath("dashboard-failing.png"), fullPage: true });

      // It comes back: the page, left open, follows by itself.
      await page.goto(integrationPath);
      await fault.up();
      await expect(page.getByTestId("integration-status")).toHaveText("Healthy", { timeout: 30_000 });
      await expect(page.getByTestId("integration-state")).toHaveText(
        /^Healthy since .* UTC: answering again after \d+ s\.$/,
      );

      // A restart that forgets our session costs no call, and says so.
      await fault.restart(400);
      await expect(await integrations.runTool("echo", { message: "still there?" })).toHaveText(
        /Echo: still there\?/,
      );
      await page.reload();
      await expect(page.getByTestId("integration-status")).toHaveText("Degraded");
      await expect(page.getByTestId("integration-state")).toHaveText(
        /^Degraded since .* UTC: the server restarted and forgot our session; reconnected\.$/,
      );
    });

    test("its page and the dashboard meet the page standard while it is failing", async ({
      browser,
      baseURL,
      page,
      signedIn: _,
    }) => {
      test.setTimeout(300_000);
      // Two calls that fail make it failing; it stays so while the server is down.
      await fault.down();
      await page.goto(integrationPath);
      const integrations = new IntegrationsPage(page);
      for (let i = 0; i < 2; i++)
        await expect(await integrations.runTool("echo", { message: "x" })).toContainText(/unavailable/);
      await page.reload();
      await expect(page.getByTestId("integration-status")).toHaveText("Failing");
      const problems: string[] = [];
      await inEachViewportAndScheme(async ({ viewport, colorScheme }) => {
        const context = await browser.newContext({ viewport, colorScheme, baseURL });
        const other = await context.newPage();
        await new LoginPage(other).login(owner.email, owner.password);
        for (const path of [integrationPath, "/integrations", "/admin"])
          await checkPage(other, path, viewport.width, colorScheme, problems);
        await context.close();
      });
      expect(problems).toEqual([]);
      await fault.up();
    });
  });
