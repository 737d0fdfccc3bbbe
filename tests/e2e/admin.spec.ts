import { expect, test } from "./fixtures/signed-in";
import { RegisterPage } from "./pages/auth-pages";
import { IntegrationsPage } from "./pages/integrations";
import { MembersPage } from "./pages/members";
import { Shell } from "./pages/shell";

test("the dashboard shows the calls made through REST and the chat, the audit log, and stays closed to members", async ({
  page,
  browser,
  signedIn,
  createApiKey,
}) => {
  // Two accounts, an integration, keys and calls of every kind before the dashboard is read.
  test.setTimeout(120_000);
  const org = signedIn.organizationName;
  await new IntegrationsPage(page).addFromCatalog("everything");

  // Mel registers, is invited to the organization as a member, and accepts.
  const memberContext = await browser.newContext();
  const memberPage = await memberContext.newPage();
  const memberRegister = new RegisterPage(memberPage);
  await memberRegister.goto();
  await memberRegister.register({ name: "Mel Member", email: "mel@example.com", password: "member only" });
  const members = new MembersPage(page);
  await members.openInvite();
  const link = await members.invite("mel@example.com", "member");
  await memberPage.goto(link);
  await memberPage.getByRole("button", { name: `Join ${org}` }).click();
  await expect(memberPage.getByTestId("page-title")).toHaveText(org);
  await members.goto();
  await expect(page.getByTestId("member-row")).toHaveCount(2);

  // REST calls with an API key: two that work and one that the tool refuses.
  const key = await createApiKey("Reports");
  const invoke = (params: unknown) =>
    page.request.post("/api/mcp/invoke", {
      headers: { Authorization: `Bearer ${key}` },
      data: { tool_name: "everything_get-sum", params },
    });
  expect((await invoke({ a: 1, b: 2 })).status()).toBe(200);
  expect((await invoke({ a: 3, b: 4 })).status()).toBe(200);
  expect((await invoke({ a: "x" })).status()).toBe(400);
  // Names that exist nowhere, and a tool outside a key's scope: refusals before any server, not its errors.
  for (const name of ["nope", "no_such_tool"]) {
    const unknown = await page.request.post("/api/mcp/invoke", {
      headers: { Authorization: `Bearer ${key}` },
      data: { tool_name: name, params: {} },
    });
    expect(unknown.status()).toBe(400);
  }
  const knowledgeKey = await createApiKey("Knowledge only", async () => {
    await page.getByLabel("May use").selectOption("knowledge");
  });
  const outOfScope = await page.request.post("/api/mcp/invoke", {
    headers: { Authorization: `Bearer ${knowledgeKey}` },
    data: { tool_name: "everything_get-sum", params: { a: 1, b: 1 } },
  });
  expect(outOfScope.status()).toBe(400);

  // A call from the chat.
  await page.goto("/chat");
  await page.getByRole("button", { name: "New conversation" }).click();
  await expect(page.getByTestId("tools-panel")).toBeVisible({ timeout: 30_000 });
  const input = page.getByLabel("Message", { exact: true });
  await input.fill('/call everything_echo {"message": "for the dashboard"}');
  await input.press("Enter");
  await expect(page.getByTestId("tool-call")).toContainText("done");

  // The default range is the last 24 hours, hour by hour: today's calls show.
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.getByRole("link", { name: "Dashboard", exact: true }).click();
  await expect(page).toHaveURL(/\/admin/);
  await expect(
    page.getByRole("navigation", { name: "Time range" }).getByRole("link", { name: "24h" }),
  ).toHaveAttribute("aria-current", "page");
  // 4 calls that reached the server or the chat, 1 refused by validation, 2 unknown names, 1 outside a scope.
  const totals = page.getByTestId("totals");
  await expect(totals).toContainText("Tool calls7");
  await expect(totals).toContainText("Server errors0 · 0.0%");
  await expect(totals).toContainText("Refused before the server4");
  await expect(totals).toContainText("Tool error results0");
  // No figure wraps or spills out of its card at a laptop's width.
  const spilled = await page.getByTestId("kpi").evaluateAll((cards) =>
    cards
      .map((card) => card.querySelector("p:last-child") as HTMLElement)
      .filter((value) => value.getClientRects().length !== 1 || value.scrollWidth > value.clientWidth)
      .map((value) => value.textContent),
  );
  expect(spilled).toEqual([]);
  const tools = page.getByRole("table", { name: "The most called tools with their outcomes and latency" });
  // One row per tool (the scope refusal is get-sum's), and unknown names share one row.
  await expect(tools.getByRole("row")).toHaveCount(4);
  await expect(tools.getByRole("row", { name: /everything_get-sum/ })).toContainText(
    /^everything_get-sum4020\d+ ms/,
  );
  await expect(tools.getByRole("row", { name: /unknown tools/ })).toContainText(/^unknown tools2020/);
  // The Everything server never failed: its refusals are not its errors.
  await expect(
    page
      .getByRole("table", { name: "Health, outcomes and latency of each integration" })
      .getByRole("row")
      .nth(1),
  ).toContainText(/Everything.*5020\d+ ms/);
  await expect(page.getByRole("table", { name: "Calls made with each API key" })).toContainText("Reports");
  await expect(
    page.getByRole("img", { name: /Tool calls per hour: 7 in all, 0 server errors/ }),
  ).toBeVisible();
  await expect(page.getByTestId("chart-bucket")).toHaveCount(25);

  // Filtering the audit log keeps the place on the page.
  const auditFilter = page.getByRole("group", { name: "Audit filter" });
  await page.evaluate(() => document.getElementById("audit")?.scrollIntoView());
  const before = await page.evaluate(() => window.scrollY);
  expect(before).toBeGreaterThan(0);
  await auditFilter.getByRole("button", { name: "api key" }).click();
  const audit = page.getByRole("table", { name: "Changes in this range, newest first" });
  await expect(audit).toContainText("api_key.create");
  await expect(audit).not.toContainText("integration.create");
  // Still at the log, not sent back to the top of the page.
  await expect(auditFilter).toBeInViewport();
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(before / 2);
  await expect(page).toHaveURL(/audit=api_key/);
  // Audit values read as words, not JSON.
  await expect(audit).not.toContainText('"');
  await page.screenshot({ path: test.info().outputPath("dashboard.png"), fullPage: true });

  const csv = await page.request.get("/admin/export?range=7d");
  expect(csv.headers()["content-type"]).toContain("text/csv");
  const exported = await csv.text();
  expect(exported).toContain("everything_get-sum,integration,4,0,2,0,");
  expect(exported).toContain("(unknown tools),,2,0,2,0,");

  // A member cannot open the organization's dashboard.
  await memberPage.reload();
  await new Shell(memberPage).switchTo(org);
  expect((await memberPage.goto("/admin"))?.status()).toBe(403);
  await expect(memberPage.getByTestId("page-message")).toHaveText("Only owners and admins can do this");
  await expect(
    memberPage.getByText("The dashboard is for the organization's owners and admins."),
  ).toBeVisible();
  // Inside the app's shell, with a way back.
  await expect(memberPage.getByRole("navigation", { name: "Main" })).toBeVisible();
  await memberPage.getByRole("link", { name: "Go to the overview" }).click();
  await expect(memberPage.getByTestId("page-title")).toHaveText(org);
  // Every page only owners and admins may use says so in the shell, rather than sending the member elsewhere.
  for (const path of [
    "/settings/api-keys",
    "/integrations/new",
    "/agents/new",
    "/capabilities/new",
    "/settings/members/invite",
  ]) {
    expect((await memberPage.goto(path))?.status(), path).toBe(403);
    await expect(memberPage).toHaveURL(new RegExp(`${path}$`));
    await expect(memberPage.getByTestId("page-message")).toHaveText("Only owners and admins can do this");
    await expect(
      memberPage.locator("#main").getByRole("link", { name: /^Back to |^Connect a client$/ }),
    ).toBeVisible();
    await expect(memberPage.getByRole("navigation", { name: "Main" })).toBeVisible();
  }
  await memberContext.close();
});
