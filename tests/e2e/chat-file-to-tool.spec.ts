import { createHash } from "node:crypto";
import { modelAppPort, scriptedLlmPort } from "../../playwright.config";
import { type RunningFixture, startFixture } from "../fixtures/mcp/start-fixture";
import { expect, newAccount, test } from "./fixtures/signed-in";
import { checkPage, inEachViewportAndScheme } from "./page-check";
import { IntegrationsPage } from "./pages/integrations";

// The app with a model configured: @ai-sdk/openai against our scripted server, which records what it was sent.
test.use({ baseURL: `http://127.0.0.1:${modelAppPort}` });
const llm = `http://127.0.0.1:${scriptedLlmPort}`;

type Sent = { messages: { role: string; content: unknown }[] };

const note = Buffer.from("Invoice 7: 1,200 EUR, due Friday.\n");
const digest = `${note.length} bytes, sha256 ${createHash("sha256").update(note).digest("hex")}`;

let files: RunningFixture;
let added = false;
test.beforeAll(async () => {
  files = await startFixture("file-taker");
});
test.afterAll(async () => {
  await files?.stop();
});

test.describe
  .serial("handing an attached file to a tool", () => {
    test.use({ account: newAccount("Tao Tools") });

    inEachViewportAndScheme(({ viewport, colorScheme }) => {
      test(`the model passes the file's handle and the tool reads the file, at ${viewport.width} px, ${colorScheme}`, async ({
        page,
        signedIn: _,
      }) => {
        test.setTimeout(120_000);
        if (!added) await new IntegrationsPage(page).addCustom({ name: "Files", url: files.url });
        added = true;
        await page.setViewportSize(viewport);
        await page.emulateMedia({ colorScheme });
        await page.goto("/chat");
        await page.getByRole("button", { name: "New conversation" }).click();
        await expect(page.getByTestId("discovery-banner")).toContainText("Files: 2 tools", {
          timeout: 30_000,
        });

        const uploaded = page.waitForResponse(
          (response) => response.request().method() === "POST" && /\/files\?name=/.test(response.url()),
        );
        const chooser = page.waitForEvent("filechooser");
        await page.getByRole("button", { name: "Attach files" }).click();
        await (await chooser).setFiles([{ name: "invoice.txt", mimeType: "text/plain", buffer: note }]);
        const { fileId } = (await (await uploaded).json()) as { fileId: string };
        await expect(page.getByLabel("Uploading")).toHaveCount(0);

        const steps = [
          { toolCalls: [{ name: "files_file_digest", arguments: { file: `chat-file:${fileId}` } }] },
          { text: "The tool read the invoice." },
        ];
        expect((await page.request.post(`${llm}/__script`, { data: { steps } })).ok()).toBe(true);
        const input = page.getByLabel("Message", { exact: true });
        await input.fill("Check the invoice with the digest tool.");
        await input.press("Enter");
        await expect(page.getByTestId("message-assistant").last()).toContainText("read the invoice", {
          timeout: 30_000,
        });

        // The model was told the handle; the tool got the file itself, and its answer went back to the model.
        const { requests } = (await (await page.request.get(`${llm}/__requests`)).json()) as {
          requests: Sent[];
        };
        const system = requests[0]?.messages.find((message) => message.role === "system");
        expect(String(system?.content)).toContain(
          `"invoice.txt" (text/plain, ${note.length} B): chat-file:${fileId}`,
        );
        const toolAnswer = requests[1]?.messages.find((message) => message.role === "tool");
        expect(JSON.stringify(toolAnswer?.content)).toContain(`invoice.txt (text/plain): ${digest}`);

        const problems: string[] = [];
        await checkPage(
          page,
          page.url().replace(/^https?:\/\/[^/]+/, ""),
          viewport.width,
          colorScheme,
          problems,
        );
        expect(problems).toEqual([]);
      });
    });
  });
