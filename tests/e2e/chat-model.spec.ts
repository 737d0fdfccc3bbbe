import { expect, type Page, test } from "@playwright/test";
import { modelAppPort, scriptedLlmPort } from "../../playwright.config";
import { RegisterPage } from "./pages/auth-pages";
import { IntegrationsPage } from "./pages/integrations";

// This file talks to the app that has a model configured: @ai-sdk/openai against our scripted server.
test.use({ baseURL: `http://127.0.0.1:${modelAppPort}` });
const llm = `http://127.0.0.1:${scriptedLlmPort}`;

async function script(page: Page, steps: unknown[]) {
  const response = await page.request.post(`${llm}/__script`, { data: { steps } });
  expect(response.ok()).toBe(true);
}

test.describe
  .serial("chat with a model", () => {
    test("a multi-step tool loop runs real MCP tools, and a broken integration only shows in the banner", async ({
      page,
    }) => {
      const register = new RegisterPage(page);
      await register.goto();
      await register.register({
        name: "Mo Model",
        email: "mo@example.com",
        password: "model tests",
        organizationName: "Model Co",
      });
      await expect(page.getByTestId("page-title")).toHaveText("Model Co");
      const integrations = new IntegrationsPage(page);
      await integrations.addFromCatalog("everything");
      await integrations.addCustom({ name: "Broken server", url: "http://no-such-host.invalid/mcp" });

      await script(page, [
        { toolCalls: [{ name: "everything_echo", arguments: { message: "first" } }] },
        { toolCalls: [{ name: "everything_get-sum", arguments: { a: 40, b: 2 } }] },
        { text: "The echo said first, and the sum is 42." },
      ]);
      await page.goto("/chat");
      await page.getByRole("button", { name: "New conversation" }).click();
      await expect(page.getByText(/Offline mode/)).toHaveCount(0);
      const input = page.getByLabel("Message", { exact: true });
      await input.fill("Echo and add, please");
      await input.press("Enter");

      await expect(page.getByTestId("message-assistant").last()).toContainText("the sum is 42", {
        timeout: 30_000,
      });
      await expect(page.getByTestId("tool-call")).toHaveCount(2);
      await expect(page.getByTestId("discovery-banner")).toContainText(/Everything: \d+ tools/);
      await expect(page.getByTestId("discovery-banner")).toContainText(
        /Broken server unavailable: Could not find the host/,
      );

      // The model was sent each tool's real result before its next step.
      const { requests } = (await (await page.request.get(`${llm}/__requests`)).json()) as {
        requests: {
          messages: { role: string; content: unknown }[];
          tools?: { function: { name: string } }[];
        }[];
      };
      expect(requests).toHaveLength(3);
      expect(requests[0]?.tools?.map((tool) => tool.function.name)).toEqual(
        expect.arrayContaining(["node_knowledge_retriever", "everything_echo"]),
      );
      expect(JSON.stringify(requests[1]?.messages.at(-1))).toContain("Echo: first");
      expect(JSON.stringify(requests[2]?.messages.at(-1))).toContain("42");
    });

    test("a failing tool's error reaches the model, which explains it", async ({ page }) => {
      await page.goto("/login");
      await page.getByLabel("Email").fill("mo@example.com");
      await page.getByLabel("Password").fill("model tests");
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect(page.getByTestId("page-title")).toBeVisible();
      await script(page, [
        { toolCalls: [{ name: "node_knowledge_retriever", arguments: { node_names: [] } }] },
        { text: "The knowledge tool needs at least one node name." },
      ]);
      await page.goto("/chat");
      await page.getByRole("button", { name: "New conversation" }).click();
      const input = page.getByLabel("Message", { exact: true });
      await input.fill("Look up nothing");
      await input.press("Enter");
      await expect(page.getByTestId("message-assistant").last()).toContainText(
        "needs at least one node name",
        { timeout: 30_000 },
      );
      await expect(page.getByTestId("tool-call")).toContainText("failed");
      const { requests } = (await (await page.request.get(`${llm}/__requests`)).json()) as {
        requests: { messages: unknown[] }[];
      };
      expect(JSON.stringify(requests[1]?.messages.at(-1))).toContain("node_names is required");
    });
  });
