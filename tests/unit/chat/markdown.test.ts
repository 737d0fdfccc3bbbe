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
});
