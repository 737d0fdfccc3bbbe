import type { Page } from "@playwright/test";
import { modelAppPort, scriptedLlmPort } from "../../playwright.config";
import { elfBytes, makePdf, tinyPng } from "../fixtures/files/sample-files";
import { expect, newAccount, test } from "./fixtures/signed-in";
import { checkPage, inEachViewportAndScheme } from "./page-check";

// The app with a model configured: @ai-sdk/openai against our scripted server, which records what it was sent.
test.use({ baseURL: `http://127.0.0.1:${modelAppPort}` });
const llm = `http://127.0.0.1:${scriptedLlmPort}`;

type SentPart = { type: string; text?: string; image_url?: { url: string } };

async function userPartsSent(page: Page): Promise<SentPart[]> {
  const { requests } = (await (await page.request.get(`${llm}/__requests`)).json()) as {
    requests: { messages: { role: string; content: string | SentPart[] }[] }[];
  };
  const user = requests.at(-1)?.messages.findLast((message) => message.role === "user");
  return Array.isArray(user?.content) ? user.content : [];
}

/** Hands the page files as a drop or a paste would: a DataTransfer holding them, dispatched on `selector`. */
async function dispatchFiles(
  page: Page,
  selector: string,
  event: "drop" | "paste",
  files: { name: string; type: string; base64: string }[],
) {
  await page.evaluate(
    ({ selector, event, files }) => {
      const transfer = new DataTransfer();
      for (const file of files) {
        const bytes = Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0));
        transfer.items.add(new File([bytes], file.name, { type: file.type }));
      }
      const target = document.querySelector(selector);
      if (!target) throw new Error(`nothing matches ${selector}`);
      const dispatched =
        event === "paste"
          ? new ClipboardEvent("paste", { clipboardData: transfer, bubbles: true, cancelable: true })
          : new DragEvent("drop", { dataTransfer: transfer, bubbles: true, cancelable: true });
      target.dispatchEvent(dispatched);
    },
    { selector, event, files },
  );
}

const note = "Meeting notes: the heron project ships on Friday.";

test.describe
  .serial("attaching files in the chat", () => {
    test.use({ account: newAccount("Fia Files") });

    inEachViewportAndScheme(({ viewport, colorScheme }) => {
      test(`an image, a PDF and a text file reach the model and stay on the message, at ${viewport.width} px, ${colorScheme}`, async ({
        page,
        signedIn: _,
      }) => {
        // Three uploads, a turn, a reload, an export and the page checks: more than the default minute.
        test.setTimeout(180_000);
        await page.setViewportSize(viewport);
        await page.emulateMedia({ colorScheme });
        const problems: string[] = [];
        await page.goto("/chat");
        await page.getByRole("button", { name: "New conversation" }).click();
        await expect(page.getByLabel("Message", { exact: true })).toBeFocused();

        // The paperclip: an image and a PDF, chosen together.
        const chooser = page.waitForEvent("filechooser");
        await page.getByRole("button", { name: "Attach files" }).click();
        await (await chooser).setFiles([
          { name: "dot.png", mimeType: "image/png", buffer: tinyPng },
          { name: "report.pdf", mimeType: "application/pdf", buffer: makePdf("Revenue grew nine percent") },
        ]);
        // A paste: a text file.
        await dispatchFiles(page, "#chat-input", "paste", [
          { name: "notes.txt", type: "text/plain", base64: Buffer.from(note).toString("base64") },
        ]);
        // A drop: a program dressed as an image (refused, with the reason) and a file removed before sending.
        await dispatchFiles(page, '[data-testid="composer"]', "drop", [
          { name: "cat.png", type: "image/png", base64: elfBytes.toString("base64") },
          { name: "draft.txt", type: "text/plain", base64: Buffer.from("not this one").toString("base64") },
        ]);
        await expect(page.getByTestId("file-error")).toContainText(
          "cat.png was not attached: This kind of file cannot be attached: the chat takes PNG, JPEG, GIF or WebP images, PDFs and text files.",
        );
        const attached = page.getByTestId("attached-file");
        await expect(attached).toHaveCount(4);
        await expect(page.getByLabel("Uploading")).toHaveCount(0);
        await page.getByRole("button", { name: "Remove draft.txt" }).click();
        await expect(attached).toHaveText([/dot\.png\s*\d+ B/, /report\.pdf\s*\d+ B/, /notes\.txt\s*49 B/]);

        const steps = [{ text: "A dot, a revenue report and notes on the heron project." }];
        expect((await page.request.post(`${llm}/__script`, { data: { steps } })).ok()).toBe(true);
        const input = page.getByLabel("Message", { exact: true });
        await input.fill("What did I attach?");
        await input.press("Enter");
        await expect(page.getByTestId("message-assistant").last()).toContainText("heron project", {
          timeout: 30_000,
        });
        await expect(attached).toHaveCount(0);

        // The model received the image as an image part, the PDF's and the note's text as text.
        const sent = await userPartsSent(page);
        expect(sent.map((part) => part.type)).toEqual(["text", "image_url", "text", "text"]);
        expect(sent[1]?.image_url?.url).toBe(`data:image/png;base64,${tinyPng.toString("base64")}`);
        expect(sent[2]?.text).toMatch(
          /^Attached file "report\.pdf" \(application\/pdf, \d+ B\):\n\nRevenue grew nine percent$/,
        );
        expect(sent[3]?.text).toBe(`Attached file "notes.txt" (text/plain, 49 B):\n\n${note}`);

        // After a reload the message shows the image as a thumbnail and the other files as chips.
        const url = page.url().replace(/^https?:\/\/[^/]+/, "");
        await checkPage(page, url, viewport.width, colorScheme, problems);
        const question = page.getByTestId("message-user").first();
        const thumbnail = question.getByRole("img", { name: "dot.png" });
        await expect(thumbnail).toBeVisible();
        expect(await thumbnail.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
        await expect(question.getByTestId("message-file")).toHaveText([
          "",
          /report\.pdf\s*\d+ B/,
          /notes\.txt\s*49 B/,
        ]);

        // The export names each attachment.
        const markdown = await (
          await page.request.get(`${url.replace(/\/?$/, "")}/export`.replace(/^\/chat/, "/api/chat"))
        ).text();
        expect(markdown).toContain("_Attached file: dot.png (image/png, 70 B)_");
        expect(markdown).toContain("_Attached file: notes.txt (text/plain, 49 B)_");
        expect(problems).toEqual([]);
      });
    });
  });

test("the composer warns when an image is attached and the chosen model is marked text only", async ({
  page,
  signedIn: _,
}) => {
  const problems: string[] = [];
  await checkPage(page, "/settings/models", 1366, "light", problems);
  const textOnly = page.getByRole("form", { name: "Text-only models" });
  await textOnly.getByRole("checkbox", { name: "scripted-model" }).check();
  await textOnly.getByRole("button", { name: "Save" }).click();
  await expect(textOnly.getByRole("status")).toHaveText("Saved: text only: scripted-model.");

  await page.goto("/chat");
  await page.getByRole("button", { name: "New conversation" }).click();
  await expect(page.getByLabel("Message", { exact: true })).toBeFocused();
  const warning = page.getByTestId("image-warning");
  await dispatchFiles(page, "#chat-input", "paste", [
    { name: "notes.txt", type: "text/plain", base64: Buffer.from(note).toString("base64") },
  ]);
  await expect(page.getByTestId("attached-file")).toHaveText([/notes\.txt/]);
  await expect(warning).toHaveCount(0);
  await dispatchFiles(page, "#chat-input", "paste", [
    { name: "dot.png", type: "image/png", base64: tinyPng.toString("base64") },
  ]);
  await expect(warning).toHaveText(
    "scripted-model cannot see images: it will only be told an image was attached. Choose another model to have it look at the image.",
  );
  await page.getByRole("button", { name: "Remove dot.png" }).click();
  await expect(warning).toHaveCount(0);
  expect(problems).toEqual([]);
});
