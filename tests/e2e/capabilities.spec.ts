import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { expect, test } from "./fixtures/signed-in";

test("a capability written in the editor is tested, saved, and called by an MCP client through the gateway", async ({
  page,
  baseURL,
  signedIn: _,
}) => {
  await page.getByRole("link", { name: "Capabilities", exact: true }).click();
  await expect(page.getByText("No capabilities yet.")).toBeVisible();
  await page.getByRole("link", { name: "New capability" }).click();
  const form = page.getByRole("form", { name: "Capability" });
  await form.getByLabel("Namespace").fill("demo");
  await form.getByLabel("Action").fill("greet");
  await expect(page.getByTestId("capability-tool-name")).toContainText(
    "mcp__demo__greet (16 of 64 characters)",
  );
  await form.getByLabel("Description").fill("Greets someone by name");
  await form
    .getByLabel("Parameters (JSON Schema)")
    .fill('{"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}');
  await form
    .getByLabel("Code")
    .fill('console.log("greeting", args.name);\nreturn { greeting: "Hello " + args.name };');

  const panel = page.getByTestId("test-run");
  await panel.getByLabel("Arguments (JSON)").fill('{"name": "Ada"}');
  await panel.getByRole("button", { name: "Run" }).click();
  await expect(page.getByTestId("test-run-result")).toContainText('"greeting": "Hello Ada"');
  await expect(page.getByTestId("test-run-logs")).toHaveText("greeting Ada");
  // The panel is as tall as what it shows, not stretched to the form beside it.
  const fits = await panel.evaluate((section) => {
    const last = section.lastElementChild?.getBoundingClientRect().bottom ?? 0;
    return section.getBoundingClientRect().bottom - last;
  });
  expect(fits).toBeLessThan(24);
  await panel.getByLabel("Arguments (JSON)").fill("{oops");
  await panel.getByRole("button", { name: "Run" }).click();
  await expect(panel.getByRole("alert")).toHaveText("The arguments are not valid JSON.");

  // A run that does not end shows its time and stops on Cancel; the last run's error is gone meanwhile.
  const code = form.getByLabel("Code");
  const greeting = await code.inputValue();
  await code.fill("while (true) {}");
  await panel.getByLabel("Arguments (JSON)").fill('{"name": "Ada"}');
  await panel.getByRole("button", { name: "Run" }).click();
  await expect(panel.getByTestId("test-run-elapsed")).toHaveText(/^[1-9]\d* s$/);
  await expect(panel.getByRole("alert")).toHaveCount(0);
  await panel.getByRole("button", { name: "Cancel" }).click();
  await expect(panel.getByText("Cancelled: the run and every call it made were stopped.")).toBeVisible();
  await code.fill(greeting);

  // Leaving with unsaved changes asks first; staying keeps everything as it was.
  page.once("dialog", (dialog) => {
    expect(dialog.message()).toBe("You have unsaved changes. Leave without saving them?");
    void dialog.dismiss();
  });
  await page.getByRole("link", { name: "Agents", exact: true }).click();
  await expect(page).toHaveURL(/\/capabilities\/new$/);
  await expect(form.getByLabel("Namespace")).toHaveValue("demo");

  // What it declares of its result and of itself reaches MCP clients.
  await form
    .getByLabel("Output schema (JSON Schema, optional)")
    .fill('{"type": "object", "properties": {"greeting": {"type": "string"}}, "required": ["greeting"]}');
  // The test run keeps the draft's output schema as a call of the saved capability would.
  await code.fill("return { greeting: 7 };");
  await panel.getByRole("button", { name: "Run" }).click();
  await expect(page.getByTestId("test-run-result")).toContainText("Failed in");
  await expect(page.getByTestId("test-run-result").getByRole("alert")).toHaveText(
    /^mcp__demo__greet answered a result that does not match its output schema: .*greeting/,
  );
  await code.fill(greeting);
  await panel.getByRole("button", { name: "Run" }).click();
  await expect(page.getByTestId("test-run-result")).toContainText("Succeeded in");
  await form.getByLabel("Read-only").check();
  await form.getByRole("button", { name: "Create capability" }).click();
  await expect(page).toHaveURL(/\/capabilities$/);
  const row = page.getByTestId("capability-row").filter({ hasText: "mcp__demo__greet" });
  await expect(row).toContainText("Greets someone by name");

  // Connect a client: a key made on the page goes into the configurations.
  await page.getByRole("link", { name: "Connect a client", exact: true }).click();
  const endpoint = `${baseURL}/api/mcp`;
  await expect(page.getByText(endpoint, { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Create key" }).click();
  const key = (await page.getByTestId("new-api-key").textContent())?.trim() ?? "";
  expect(key).toMatch(/^sb_/);
  await page.getByRole("tab", { name: "Cursor" }).click();
  await expect(page.getByTestId("client-config")).toContainText(`"Authorization": "Bearer ${key}"`);
  await expect(page.getByTestId("client-config")).toContainText(endpoint);

  // A real MCP client over Streamable HTTP, against the running app.
  const client = new Client({ name: "e2e", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(endpoint), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
    }),
  );
  try {
    const { tools } = await client.listTools();
    const greet = tools.find((tool) => tool.name === "mcp__demo__greet");
    expect(greet?.inputSchema).toMatchObject({ required: ["name"] });
    expect(greet?.outputSchema).toMatchObject({ required: ["greeting"] });
    expect(greet?.annotations).toEqual({ readOnlyHint: true });
    const result = await client.callTool({ name: "mcp__demo__greet", arguments: { name: "Bo" } });
    expect(result.structuredContent).toEqual({ greeting: "Hello Bo" });
  } finally {
    await client.close();
  }

  await page.goto("/capabilities");
  await expect(row.locator("td").nth(1)).toHaveText("1");
  await expect(row.locator("td").nth(2)).toHaveText("100%");
  await row.getByRole("link", { name: "mcp__demo__greet" }).click();
  await expect(page.getByRole("form", { name: "Capability" }).getByLabel("Read-only")).toBeChecked();
  await expect(page.getByLabel("Destructive")).not.toBeChecked();
});
