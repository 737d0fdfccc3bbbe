import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Markdown } from "@/components/chat/markdown";

const render = (text: string) => renderToStaticMarkup(createElement(Markdown, { text }));

describe("the model's answers as Markdown", () => {
  it("renders GitHub-flavoured Markdown: lists, tables, code and links that open in a new tab", () => {
    const html = render(
      "## Routers\n\n- **router-1** in `fra1`\n\n| name | site |\n| --- | --- |\n| r1 | fra |\n\n```\nping r1\n```\n\n[docs](https://example.com)",
    );
    expect(html).toContain("<ul");
    expect(html).toContain("<strong>router-1</strong>");
    expect(html).toContain("<table");
    expect(html).toContain("<td");
    expect(html).toContain("<pre");
    expect(html).toContain('href="https://example.com" target="_blank" rel="noopener noreferrer"');
  });

  it("never renders HTML from the model, images or script links", () => {
    const html = render(
      '<img src=x onerror="alert(1)"> <script>alert(2)</script> ![tracker](https://evil.example/p.gif) [click](javascript:alert(3))',
    );
    expect(html).not.toMatch(/<img|<script|javascript:|node=/i);
    expect(html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
    expect(html).toContain("[image: tracker]");
  });

  it("in the browser, keeps what it rendered: the same text shows the same, a changed one anew, still escaped", () => {
    // The cache is the browser's only; a stand-in window turns it on.
    Object.assign(globalThis, { window: globalThis });
    try {
      const first = render("Hello **world** <b>x</b>");
      expect(render("Hello **world** <b>x</b>")).toBe(first);
      expect(first).toContain("<strong>world</strong>");
      expect(first).toContain("&lt;b&gt;x&lt;/b&gt;");
      // A streamed answer's next words are a new text: rendered anew, not the kept one.
      expect(render("Hello **world** <b>x</b> and more")).toContain("and more");
      for (let i = 0; i < 500; i++) render(`filler ${i}`);
      expect(render("Hello **world** <b>x</b>")).toBe(first);
    } finally {
      Reflect.deleteProperty(globalThis, "window");
    }
  });
});
