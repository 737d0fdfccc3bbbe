import type { Page } from "@playwright/test";
import { modelAppPort, scriptedLlmPort } from "../../playwright.config";
import { expect, newAccount, test } from "./fixtures/signed-in";
import { checkPage, inEachViewportAndScheme } from "./page-check";
import { ChatPage } from "./pages/chat";

// The chat's layout: the conversation sidebar (client navigation, search, rename, pin, delete, keys, the phone's
// drawer), a message pane that scrolls alone, the composer's focus and shortcuts, and each conversation's title.
// Offline mode (no model configured) answers every message at once, which is all these need.

/** A value kept on `window`: it survives client navigation and is gone after a full page load. */
const setMarker = (page: Page) => page.evaluate(() => Object.assign(window, { sidebarMarker: "kept" }));
const marker = (page: Page) =>
  page.evaluate(() => (window as unknown as { sidebarMarker?: string }).sidebarMarker ?? null);

test.describe
  .serial("the conversation sidebar", () => {
    test.use({ account: newAccount("Sidney Sidebar") });
    const urls: string[] = [];

    test("starts conversations with the composer focused, by button or Ctrl+Shift+O, each titled by its name", async ({
      page,
      signedIn: _,
    }) => {
      const chat = new ChatPage(page);
      await page.goto("/chat");
      await expect(page).toHaveTitle("Chat · Switchboard");
      await page.getByRole("button", { name: "New conversation" }).click();
      await expect(page).toHaveURL(/\/chat\/[0-9a-f-]+$/);
      await expect(chat.input()).toBeFocused();
      await chat.send("Routers in Frankfurt");
      await chat.send("The Zanzibar uplink is down again");
      urls.push(page.url());

      await page.keyboard.press("Control+Shift+O");
      await expect(page).not.toHaveURL(urls[0] ?? "");
      await expect(page).toHaveURL(/\/chat\/[0-9a-f-]+$/);
      await expect(chat.input()).toBeFocused();
      await chat.send("Second topic");
      urls.push(page.url());

      await page.goto(urls[0] ?? "");
      await expect(page).toHaveTitle("Routers in Frankfurt · Switchboard");
      await page.goto(urls[1] ?? "");
      await expect(page).toHaveTitle("Second topic · Switchboard");
      // An opened conversation with messages leaves the focus to the reader.
      await expect(chat.input()).not.toBeFocused();
    });

    test("switches conversations without loading the page, and moves through the list with the arrow keys", async ({
      page,
      signedIn: _,
    }) => {
      const chat = new ChatPage(page);
      await page.goto(urls[1] ?? "");
      await setMarker(page);
      const sidebar = chat.sidebar();
      await expect(
        sidebar.getByRole("region", { name: "Today" }).getByTestId("conversation-row"),
      ).toHaveCount(2);
      await sidebar.getByRole("link", { name: /Routers in Frankfurt/ }).click();
      await expect(page).toHaveURL(urls[0] ?? "");
      await expect(chat.messages("user").last()).toContainText("Zanzibar uplink");
      await expect(page).toHaveTitle("Routers in Frankfurt · Switchboard");
      expect(await marker(page)).toBe("kept");
      await expect(sidebar.getByRole("link", { name: /Routers in Frankfurt/ })).toHaveAttribute(
        "aria-current",
        "page",
      );

      // Arrow keys move between the conversations; Enter opens the one with the focus.
      await sidebar.getByRole("link", { name: /Second topic/ }).focus();
      await page.keyboard.press("ArrowDown");
      await expect(sidebar.getByRole("link", { name: /Routers in Frankfurt/ })).toBeFocused();
      await page.keyboard.press("ArrowUp");
      await expect(sidebar.getByRole("link", { name: /Second topic/ })).toBeFocused();
      await page.keyboard.press("Enter");
      await expect(page).toHaveURL(urls[1] ?? "");
      expect(await marker(page)).toBe("kept");
    });

    test("a conversation pointed at is fetched ahead: the click shows it without asking the server, and current", async ({
      page,
      signedIn: _,
    }) => {
      const chat = new ChatPage(page);
      await page.goto(urls[1] ?? "");
      const sidebar = chat.sidebar();
      const frankfurt = sidebar.getByRole("link", { name: /Routers in Frankfurt/ });
      const second = sidebar.getByRole("link", { name: /Second topic/ });
      const path = new URL(urls[0] ?? "").pathname;
      // The router asks for a page's data with an `_rsc` parameter.
      const asksFor = (url: string) =>
        new URL(url).pathname === path && new URL(url).searchParams.has("_rsc");
      const fetchedAhead = page.waitForResponse((response) => asksFor(response.url()));
      await frankfurt.hover();
      await fetchedAhead;

      const asked: string[] = [];
      page.on("request", (request) => {
        if (asksFor(request.url())) asked.push(request.url());
      });
      await frankfurt.click();
      await expect(page).toHaveURL(urls[0] ?? "");
      await expect(chat.messages("user").last()).toContainText("Zanzibar uplink");
      await expect(frankfurt).toHaveAttribute("aria-current", "page");
      await expect(second).not.toHaveAttribute("aria-current", "page");
      expect(asked).toEqual([]);

      // A message sent here shows when coming back from the other conversation, though this one was fetched ahead
      // before it was sent.
      await chat.send("Fresh capacity note");
      await second.click();
      await expect(page).toHaveURL(urls[1] ?? "");
      await expect(chat.messages("user").last()).toContainText("Second topic");
      await frankfurt.click();
      await expect(page).toHaveURL(urls[0] ?? "");
      await expect(chat.messages("user").last()).toContainText("Fresh capacity note");
    });

    test("searches titles and the text of messages on the server as one types", async ({
      page,
      signedIn: _,
    }) => {
      const chat = new ChatPage(page);
      await page.goto("/chat");
      const search = chat.sidebar().getByRole("searchbox", { name: "Search conversations" });
      // "Zanzibar" is in the second message of a conversation titled from its first.
      await search.fill("zanzib");
      const rows = chat.sidebar().getByTestId("conversation-row");
      await expect(rows).toHaveCount(1);
      await expect(rows).toContainText("Routers in Frankfurt");
      await search.fill("second");
      await expect(rows).toHaveCount(1);
      await expect(rows).toContainText("Second topic");
      await search.fill("Paris");
      await expect(chat.sidebar().getByText("No conversation mentions “Paris”.")).toBeVisible();
      await search.press("Escape");
      await expect(rows).toHaveCount(2);
    });

    test("renames, pins and deletes (after confirming) from the sidebar", async ({ page, signedIn: _ }) => {
      const chat = new ChatPage(page);
      await page.goto(urls[0] ?? "");
      const sidebar = chat.sidebar();
      await sidebar.getByRole("button", { name: "Rename “Second topic”" }).click();
      await sidebar.getByLabel("New title").fill("Capacity planning");
      await sidebar.getByLabel("New title").press("Enter");
      await expect(sidebar.getByRole("link", { name: /Capacity planning/ })).toBeVisible();

      await sidebar.getByRole("button", { name: "Pin “Routers in Frankfurt”" }).click();
      const pinned = sidebar.getByRole("region", { name: "Pinned" });
      await expect(pinned.getByTestId("conversation-row")).toHaveText(/Routers in Frankfurt/);
      await page.reload();
      await expect(chat.sidebar().getByRole("region", { name: "Pinned" })).toContainText(
        "Routers in Frankfurt",
      );
      await chat.sidebar().getByRole("button", { name: "Unpin “Routers in Frankfurt”" }).click();
      await expect(chat.sidebar().getByRole("region", { name: "Pinned" })).toHaveCount(0);

      // Deleting asks first; Cancel keeps the conversation.
      await chat.sidebar().getByRole("button", { name: "Delete “Capacity planning”" }).click();
      const dialog = page.getByRole("dialog");
      await expect(dialog).toContainText("Delete “Capacity planning”?");
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await expect(chat.sidebar().getByTestId("conversation-row")).toHaveCount(2);
      await chat.sidebar().getByRole("button", { name: "Delete “Capacity planning”" }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
      await expect(chat.sidebar().getByTestId("conversation-row")).toHaveCount(1);
      // Another conversation was deleted: this one stays open.
      await expect(page).toHaveURL(urls[0] ?? "");
      await page.goto(urls[1] ?? "");
      await expect(page.getByTestId("page-message")).toHaveText("This conversation does not exist");
      await expect(chat.sidebar().getByTestId("conversation-row")).toHaveCount(1);
    });

    test("only the messages scroll: the header, the navigation and the composer stay in view", async ({
      page,
      signedIn: _,
    }) => {
      const chat = new ChatPage(page);
      await page.goto(urls[0] ?? "");
      // Offline answers list the tools: a few turns make the conversation taller than the window.
      for (const word of ["one", "two", "three", "four", "five", "six"]) await chat.send(`Message ${word}`);
      const pane = chat.pane();
      const sizes = await pane.evaluate((element) => ({
        scrollHeight: element.scrollHeight,
        clientHeight: element.clientHeight,
      }));
      expect(sizes.scrollHeight).toBeGreaterThan(sizes.clientHeight * 1.5);
      // The pane opened at its end; the document itself never scrolls.
      await expect(chat.messages("user").last()).toBeInViewport();
      await pane.evaluate((element) => element.scrollTo(0, 0));
      await expect(chat.messages("user").first()).toBeInViewport();
      await page.mouse.wheel(0, 2_000);
      expect(await page.evaluate(() => document.scrollingElement?.scrollTop ?? 0)).toBe(0);
      await expect(page.getByRole("heading", { name: "Routers in Frankfurt" })).toBeInViewport();
      await expect(page.getByTestId("conversation-agent")).toBeInViewport();
      await expect(page.getByRole("link", { name: "Chat", exact: true })).toBeInViewport();
      await expect(chat.input()).toBeInViewport();
    });

    test("on a phone the list is a drawer opened by a button; nothing is wider than 320 px", async ({
      page,
      signedIn: _,
    }) => {
      const chat = new ChatPage(page);
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto("/chat");
      await expect(chat.sidebar()).toBeHidden();
      await expect(page.getByRole("button", { name: "New conversation" })).toBeInViewport({ ratio: 1 });
      await page.getByRole("button", { name: "Conversations", exact: true }).click();
      await expect(chat.sidebar()).toBeVisible();
      await setMarker(page);
      await chat
        .sidebar()
        .getByRole("link", { name: /Routers in Frankfurt/ })
        .click();
      await expect(page).toHaveURL(urls[0] ?? "");
      await expect(chat.sidebar()).toBeHidden();
      expect(await marker(page)).toBe("kept");

      for (const width of [390, 320]) {
        await page.setViewportSize({ width, height: 640 });
        for (const path of ["/chat", urls[0] ?? ""]) {
          await page.goto(path);
          await expect(chat.input().or(page.getByRole("button", { name: "New conversation" }))).toBeVisible();
          const { scrollWidth, innerWidth } = await page.evaluate(() => ({
            scrollWidth: document.documentElement.scrollWidth,
            innerWidth: window.innerWidth,
          }));
          expect(scrollWidth, `${path} at ${width} px`).toBeLessThanOrEqual(innerWidth);
        }
        await page.getByRole("button", { name: "Conversations", exact: true }).click();
        await expect(chat.sidebar()).toBeInViewport();
        const box = await chat.sidebar().boundingBox();
        expect((box?.x ?? -1) >= 0 && (box?.width ?? Infinity) <= width).toBe(true);
        await page.keyboard.press("Escape");
        await expect(chat.sidebar()).toBeHidden();
      }
    });

    test("a failed tool call shows its error once", async ({ page, signedIn: _ }) => {
      const chat = new ChatPage(page);
      await page.goto("/chat");
      await page.getByRole("button", { name: "New conversation" }).click();
      await chat.send('/call node_knowledge_retriever {"node_names": []}');
      const call = page.getByTestId("tool-call").last();
      await expect(call.getByTestId("tool-status")).toHaveText("failed");
      await call.locator("summary").click();
      const output = call.getByTestId("tool-output");
      await expect(output.getByRole("alert")).toContainText("node_names");
      const text = (await output.textContent()) ?? "";
      const alert = ((await output.getByRole("alert").textContent()) ?? "").trim();
      expect(alert.length).toBeGreaterThan(0);
      expect(text.split(alert).length - 1).toBe(1);
    });

    inEachViewportAndScheme(({ viewport, colorScheme }) => {
      test(`the chat meets the page standard at ${viewport.width} px, ${colorScheme}`, async ({
        page,
        signedIn: _,
      }) => {
        await page.setViewportSize(viewport);
        await page.emulateMedia({ colorScheme });
        const problems: string[] = [];
        for (const path of ["/chat", urls[0] ?? ""])
          await checkPage(page, path, viewport.width, colorScheme, problems);
        if (viewport.width < 1024) {
          // The drawer, open, meets it too.
          await page.getByRole("button", { name: "Conversations", exact: true }).click();
          await expect(new ChatPage(page).sidebar()).toBeVisible();
        }
        await page
          .getByRole("button", { name: /Rename “/ })
          .first()
          .click();
        const { violations } = await import("@axe-core/playwright").then(({ default: AxeBuilder }) =>
          new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze(),
        );
        expect(
          violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id),
        ).toEqual([]);
        expect(problems).toEqual([]);
      });
    });
  });

// Stopping needs an answer that takes a while: the app with a model, talking to the scripted server.
test.describe("stopping an answer", () => {
  test.use({ baseURL: `http://127.0.0.1:${modelAppPort}` });

  test("Esc stops a running answer and keeps what came", async ({ page, signedIn: _ }) => {
    const words = Array.from({ length: 60 }, (_, i) => `word${i}`).join(" ");
    const scripted = await page.request.post(`http://127.0.0.1:${scriptedLlmPort}/__script`, {
      data: { steps: [{ text: words, delayMs: 150 }] },
    });
    expect(scripted.ok()).toBe(true);
    const chat = new ChatPage(page);
    await page.goto("/chat");
    await page.getByRole("button", { name: "New conversation" }).click();
    await chat.input().fill("Say many words");
    await chat.input().press("Enter");
    const answer = chat.messages("assistant").last();
    await expect(answer).toContainText("word3");
    await page.keyboard.press("Escape");
    await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
    // Stopped: nothing more arrives (a word comes every 150 ms while it runs).
    const kept = await answer.textContent();
    await page.waitForTimeout(1_500);
    expect(await answer.textContent()).toBe(kept);
    expect(kept).not.toContain("word59");
  });
});

// A conversation left while its answer is still coming, then opened again through a page of it the sidebar fetched
// ahead before the question was asked: the app with a model, so the answer takes a while.
test.describe("an answer still coming when one switches away", () => {
  test.use({ baseURL: `http://127.0.0.1:${modelAppPort}` });

  test("coming back shows the question and the whole answer, not the page fetched ahead before them", async ({
    page,
    signedIn: _,
  }) => {
    const chat = new ChatPage(page);
    // The list shows conversations with messages only; with no script, the model answers a fixed sentence.
    const open = async (topic: string) => {
      await page.goto("/chat");
      await page.getByRole("button", { name: "New conversation" }).click();
      await expect(page).toHaveURL(/\/chat\/[0-9a-f-]+$/);
      await chat.send(topic);
      return new URL(page.url()).pathname;
    };
    const first = await open("Topic one");
    const second = await open("Topic two");
    const link = (path: string) => chat.sidebar().locator(`a[href="${path}"]`);
    const fetchedAhead = page.waitForResponse(
      (response) =>
        new URL(response.url()).pathname === first && new URL(response.url()).searchParams.has("_rsc"),
    );
    await link(first).hover();
    await fetchedAhead;
    await link(first).click();
    await expect(page).toHaveURL(new RegExp(`${first}$`));

    const words = Array.from({ length: 60 }, (_, i) => `word${i}`).join(" ");
    const scripted = await page.request.post(`http://127.0.0.1:${scriptedLlmPort}/__script`, {
      data: { steps: [{ text: words, delayMs: 150 }] },
    });
    expect(scripted.ok()).toBe(true);
    await chat.input().fill("Count slowly");
    await chat.input().press("Enter");
    await expect(chat.messages("assistant").last()).toContainText("word2");
    await link(second).click();
    await expect(page).toHaveURL(new RegExp(`${second}$`));
    await link(first).click();
    await expect(page).toHaveURL(new RegExp(`${first}$`));
    await expect(chat.messages("user").last()).toContainText("Count slowly");
    await expect(chat.messages("assistant").last()).toContainText("word59", { timeout: 20_000 });
  });
});
