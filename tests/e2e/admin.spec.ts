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

  // A call from the chat.
  await page.goto("/chat");
  await page.getByRole("button", { name: "New conversation" }).click();
  await expect(page.getByTestId("tools-panel")).toBeVisible({ timeout: 30_000 });
  const input = page.getByLabel("Message", { exact: true });
  await input.fill('/call everything_echo {"message": "for the dashboard"}');
  await input.press("Enter");
  await expect(page.getByTestId("tool-call")).toContainText("done");

  await page.getByRole("link", { name: "Dashboard", exact: true }).click();
  await expect(page).toHaveURL(/\/admin/);
  const totals = page.getByTestId("totals");
  await expect(totals).toContainText("Tool calls4");
  await expect(totals).toContainText("Error rate25.0%");
  await expect(
    page.getByRole("table", { name: "The most called tools with their error rate and latency" }),
  ).toContainText("everything_get-sum");
  await expect(page.getByRole("table", { name: "Calls made with each API key" })).toContainText("Reports");
  await expect(page.getByRole("img", { name: /Tool calls per day: 4 in all, 1 failed/ })).toBeVisible();
  await page.getByRole("navigation", { name: "Audit filter" }).getByRole("link", { name: "api key" }).click();
  await expect(page.getByRole("table", { name: "Changes in this range, newest first" })).toContainText(
    "api_key.create",
  );
  await page.screenshot({ path: test.info().outputPath("dashboard.png"), fullPage: true });

  const csv = await page.request.get("/admin/export?range=7d");
  expect(csv.headers()["content-type"]).toContain("text/csv");
  expect(await csv.text()).toContain("everything_get-sum,integration,3,1,");

  // A member cannot open the organization's dashboard.
  await memberPage.reload();
  await new Shell(memberPage).switchTo(org);
  await memberPage.goto("/admin");
  await expect(memberPage.getByTestId("page-message")).toHaveText("The dashboard is for admins");
  await expect(memberPage.getByText("Only the organization's owners and admins see")).toBeVisible();
  // Inside the app's shell, with a way back.
  await expect(memberPage.getByRole("navigation", { name: "Main" })).toBeVisible();
  await memberPage.getByRole("link", { name: "Go to the overview" }).click();
  await expect(memberPage.getByTestId("page-title")).toHaveText(org);
  await memberContext.close();
});
