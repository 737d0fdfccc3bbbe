import { modelAppPort } from "../../playwright.config";
import { type RunningFixture, startFixture } from "../fixtures/mcp/start-fixture";
import { expect, newAccount, test } from "./fixtures/signed-in";
import { IntegrationsPage } from "./pages/integrations";

// The integration page's tool runner against the Everything reference server: what MCP Inspector shows of a run.
test.describe
  .serial("the tool runner", () => {
    test.use({ account: newAccount("Ina Inspector") });

    test("shows each run's status, latency, size and JSON-RPC, keeps a history to run again, and types defaults", async ({
      page,
      signedIn: _,
    }) => {
      const integrations = new IntegrationsPage(page);
      await integrations.addFromCatalog("everything");
      await expect(integrations.testResult()).toHaveText(/Connected in \d+ ms/, { timeout: 30_000 });

      const sum = await integrations.runTool("get-sum", { a: "19", b: "23" });
      await expect(sum).toContainText("42");
      const summary = page.getByTestId("tool-runner").getByTestId("run-summary").first();
      await expect(summary).toContainText("Succeeded");
      await expect(summary).toContainText(/\d+ ms/);
      await expect(summary).toContainText(/\d+ B/);
      const raw = page.getByTestId("raw-exchange");
      await raw.getByText("JSON-RPC request and response").click();
      // Numbers go as numbers.
      await expect(page.getByTestId("raw-request")).toContainText('"a": 19');
      await expect(page.getByTestId("raw-request")).toContainText('"method": "tools/call"');
      await expect(page.getByTestId("raw-response")).toContainText('"result"');

      // Defaults are shown in their fields, and sent only while shown.
      await page.getByLabel("Tool", { exact: true }).selectOption("get-resource-reference");
      await expect(page.locator("#arg-resourceType")).not.toHaveValue("");
      await expect(page.locator("#arg-resourceId")).toHaveValue("1");

      // The history keeps the runs, newest first, and runs one again.
      const history = page.getByTestId("run-history");
      await expect(history.getByRole("listitem")).toHaveCount(1);
      await expect(history.getByRole("listitem").first()).toContainText("get-sum");
      await history.getByRole("button", { name: "Run get-sum again with these arguments" }).click();
      await expect(page.getByTestId("tool-result")).toContainText("42");
      await expect(history.getByRole("listitem")).toHaveCount(2);
      await expect(page.getByLabel("Tool", { exact: true })).toHaveValue("get-sum");
      await expect(page.locator("#arg-a")).toHaveValue("19");
      // Kept across visits, for this person.
      await page.reload();
      await expect(page.getByTestId("run-history").getByRole("listitem")).toHaveCount(2);
    });

    test("shows the server's log live, and answers its questions and sampling requests in the page", async ({
      page,
      signedIn: _,
    }) => {
      await page.goto("/integrations");
      await page.getByTestId("integration-row").first().getByRole("link").first().click();
      const integrations = new IntegrationsPage(page);

      // Elicitation: the server's form, answered here.
      await integrations.runTool("trigger-elicitation-request", {});
      const question = page.getByTestId("tool-question");
      await expect(question).toContainText("Please provide inputs for the following fields:");
      await question.getByLabel(/^String \*/).fill("Ada Lovelace");
      await question.getByRole("button", { name: "Send answer" }).click();
      await expect(page.getByTestId("tool-result")).toContainText("User provided the requested information");
      await expect(page.getByTestId("tool-result")).toContainText("Ada Lovelace");

      // Sampling: no model here, so the person replies, or declines.
      await integrations.runTool("trigger-sampling-request", { prompt: "Say hello" });
      const sampling = page.getByTestId("sampling-request");
      await expect(sampling).toContainText("Say hello");
      await sampling.getByLabel("Your reply").fill("Hello from a person");
      await sampling.getByRole("button", { name: "Send reply" }).click();
      await expect(page.getByTestId("tool-result")).toContainText("Hello from a person");

      await integrations.runTool("trigger-sampling-request", { prompt: "Say no" });
      await page.getByTestId("sampling-request").getByRole("button", { name: "Decline" }).click();
      await expect(page.getByTestId("run-summary").first()).not.toContainText("Succeeded");

      // Log messages arrive while a call runs.
      await integrations.runTool("toggle-simulated-logging", {});
      await expect(page.getByTestId("tool-result")).toContainText(/logging/i);
      await integrations.runTool("trigger-long-running-operation", { duration: "12", steps: "2" });
      await expect(page.getByTestId("run-log").getByRole("listitem").first()).toBeVisible({
        timeout: 15_000,
      });
      await expect(page.getByTestId("tool-result")).toContainText(/completed/i, { timeout: 20_000 });
      await integrations.runTool("toggle-simulated-logging", {});
    });

    test("previews resources, fills in a resource template, and runs a prompt with its arguments", async ({
      page,
      signedIn: _,
    }) => {
      await page.goto("/integrations");
      await page.getByTestId("integration-row").first().getByRole("link").first().click();

      // A static text resource, read and shown.
      const resources = page.getByTestId("resource-list");
      await resources
        .getByRole("button", { name: /^Preview / })
        .first()
        .click();
      await expect(page.getByTestId("resource-preview")).toContainText("demo://resource/static/document/");

      // A template filled in: its variable becomes part of the address read.
      await page.getByRole("button", { name: "Show resource templates" }).click();
      await page.getByRole("button", { name: "Fill in Dynamic Text Resource" }).click();
      await page.getByLabel("resourceId").fill("7");
      await expect(page.getByText("demo://resource/dynamic/text/7")).toBeVisible();
      await page.getByRole("button", { name: "Read resource" }).click();
      await expect(page.getByTestId("resource-preview")).toContainText("demo://resource/dynamic/text/7");
      // A binary one offers its bytes to download.
      await page.getByRole("button", { name: "Fill in Dynamic Blob Resource" }).click();
      await page.getByLabel("resourceId").fill("3");
      await page.getByRole("button", { name: "Read resource" }).click();
      await expect(
        page.getByTestId("resource-preview").getByRole("link", { name: /^Download / }),
      ).toBeVisible();

      // A prompt with arguments: its messages come back.
      await page.getByRole("button", { name: "Open prompt args-prompt" }).click();
      await page.getByLabel("city *").fill("Lisbon");
      await page.getByLabel("state").fill("Portugal");
      await page.getByRole("button", { name: "Get prompt" }).click();
      await expect(page.getByTestId("prompt-messages")).toContainText("What's weather in Lisbon, Portugal?");
    });
  });

test.describe("the tool runner with a tool's details", () => {
  // The app that may reach loopback addresses, where the fixture server listens.
  test.use({ baseURL: `http://127.0.0.1:${modelAppPort}`, account: newAccount("Tia Details") });
  let weather: RunningFixture;
  test.beforeAll(async () => {
    weather = await startFixture("structured");
  });
  test.afterAll(async () => {
    await weather?.stop();
  });

  test("shows a tool's title and annotations, and its structured result checked against its output schema", async ({
    page,
    signedIn: _,
  }) => {
    await new IntegrationsPage(page).addCustom({ name: "Weather", url: weather.url });
    const runner = page.getByTestId("tool-runner");
    await expect(runner).toBeVisible({ timeout: 30_000 });
    const tool = page.getByLabel("Tool", { exact: true });

    await tool.selectOption("forecast");
    const annotations = runner.getByTestId("tool-annotations");
    await expect(annotations).toContainText("Tomorrow's forecast");
    await expect(annotations.getByRole("listitem")).toHaveText(["Read-only", "Idempotent", "Open world"]);

    await page.locator("#arg-answer").selectOption("valid");
    await runner.getByRole("button", { name: "Run tool" }).click();
    const structured = runner.getByTestId("structured-result");
    await expect(structured.getByTestId("structured-check")).toHaveText("Valid against the output schema");
    await expect(structured).toContainText('"temperature": 21');

    await page.locator("#arg-answer").selectOption("invalid");
    await runner.getByRole("button", { name: "Run tool" }).click();
    await expect(structured.getByTestId("structured-check")).toHaveText("Does not match the output schema");
    await expect(runner.getByTestId("tool-result")).toContainText(
      "weather_forecast answered a result that does not match its output schema: temperature must be number.",
    );
    await expect(structured).not.toContainText("warm");

    await tool.selectOption("clear_history");
    await expect(annotations).toContainText("Clear the history");
    await expect(annotations.getByRole("listitem")).toHaveText([
      "Not read-only",
      "Destructive",
      "Idempotent",
      "Closed world",
    ]);
    await runner.getByRole("button", { name: "Run tool" }).click();
    await expect(runner.getByTestId("tool-result")).toContainText("history cleared");
    // No output schema: no structured result to check.
    await expect(runner.getByTestId("structured-result")).toHaveCount(0);

    await tool.selectOption("note");
    await expect(annotations).toContainText("declares no hints");
  });
});
