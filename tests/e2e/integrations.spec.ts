import { expect, newAccount, test } from "./fixtures/signed-in";
import { IntegrationsPage } from "./pages/integrations";

test.describe
  .serial("integrations", () => {
    // One organization for both tests: the second finds the first's integration beside the one it deletes.
    test.use({ account: newAccount() });

    test("an admin adds the Everything server from the catalog, tests it and runs echo and get-sum", async ({
      page,
      signedIn: _,
    }) => {
      // Focus follows the choice of a catalog card, and comes back to it.
      await page.goto("/integrations/new");
      const card = page.getByTestId("catalog-everything");
      await card.focus();
      await page.keyboard.press("Enter");
      await expect(page.getByRole("heading", { name: /^Everything/ })).toBeFocused();
      await page.getByRole("button", { name: "Back" }).click();
      await expect(card).toBeFocused();

      const integrations = new IntegrationsPage(page);
      await integrations.addFromCatalog("everything");
      // A new integration is tested straight away.
      await expect(integrations.testResult()).toHaveText(/Connected in \d+ ms: \d+ tools/, {
        timeout: 30_000,
      });
      await expect(page.getByTestId("integration-status")).toHaveText("Healthy");
      await expect(page.getByTestId("tool-list")).toContainText("get-sum");

      await page.getByRole("button", { name: "Test connection" }).click();
      await expect(integrations.testResult()).toHaveText(/Connected in \d+ ms/);

      const echo = await integrations.runTool("echo", { message: "hello from the browser" });
      await expect(echo).toHaveText(/Echo: hello from the browser/);

      const sum = await integrations.runTool("get-sum", { a: "19", b: "23" });
      await expect(sum).toContainText("42");
      await page.screenshot({ path: test.info().outputPath("integration-detail.png"), fullPage: true });

      // A required field left empty is caught before anything runs.
      await page.getByLabel("Tool", { exact: true }).selectOption("echo");
      await page.getByRole("button", { name: "Run tool" }).click();
      await expect(page.getByTestId("arg-message-error")).toHaveText("Required.");

      // A call whose server reports progress shows it while it runs.
      const reported = await integrations.runTool("trigger-long-running-operation", {
        duration: "3",
        steps: "3",
      });
      await expect(page.getByTestId("tool-progress")).toContainText(/[12] of 3/);
      await expect(
        page.getByRole("progressbar", { name: "Progress of trigger-long-running-operation" }),
      ).toBeVisible();
      await expect(reported).toContainText(/completed/i);
      await expect(page.getByTestId("tool-progress")).toHaveCount(0);

      // A long call shows how long it has run, and Cancel stops it.
      const long = await integrations.runTool("trigger-long-running-operation", {
        duration: "60",
        steps: "2",
      });
      await expect(page.getByTestId("run-elapsed")).toHaveText(/^[1-9]\d* s$/);
      await page.getByRole("button", { name: "Cancel" }).click();
      await expect(page.getByText("Cancelled: the server was told to stop the call.")).toBeVisible();
      await expect(page.getByRole("button", { name: "Run tool" })).toBeEnabled();
      await expect(long).toHaveCount(0);

      // Enabled again, it is tested at once, so the page says whether it works now.
      await page.goto(page.url().replace(/\?.*$/, ""));
      await expect(integrations.testResult()).toHaveCount(0);
      await page.getByRole("button", { name: "Disable" }).click();
      await page.getByRole("button", { name: "Enable" }).click();
      await expect(integrations.testResult()).toHaveText(/Connected in \d+ ms/, { timeout: 30_000 });

      await page.goto("/integrations");
      await expect(page.getByTestId("integration-row")).toContainText("Everything");
      await expect(page.getByTestId("integration-row")).toContainText("Healthy");
    });

    test("a failing custom integration shows its error, and deleting asks first", async ({
      page,
      signedIn: _,
    }) => {
      const integrations = new IntegrationsPage(page);
      // Loopback and private addresses are refused when saving, with the reason on the field.
      await page.goto("/integrations/new");
      await page.getByTestId("catalog-custom").click();
      await page.getByLabel("Name").fill("Local server");
      await page.getByLabel("URL").fill("http://127.0.0.1:8080/mcp");
      await page.getByRole("button", { name: "Add integration" }).click();
      await expect(page.getByTestId("url-error")).toHaveText(
        /private or local address.*MCP_ALLOW_PRIVATE_NETWORKS/,
      );

      // A host that does not resolve is saved, and fails visibly.
      await integrations.addCustom({ name: "Broken server", url: "http://no-such-host.invalid/mcp" });
      await expect(integrations.testResult()).toHaveText(
        /Connection failed: Could not find the host no-such-host.invalid/,
        {
          timeout: 30_000,
        },
      );
      await expect(page.getByTestId("integration-status")).toHaveText("Failing");

      await page.goto("/integrations");
      const row = page.getByTestId("integration-row").filter({ hasText: "Broken server" });
      await expect(row).toContainText("Failing");
      await row.click();

      await page.getByRole("button", { name: "Delete" }).click();
      await expect(page.getByRole("dialog")).toContainText("Delete Broken server?");
      await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
      await expect(page).toHaveURL(/\/integrations$/);
      await expect(page.getByTestId("integration-row")).toHaveCount(1);
    });
  });
