import { describe, expect, it } from "vitest";
import { toolOutputForModel, withinBudget } from "@/lib/chat/tool-result-budget";

describe("the model's share of a tool result", () => {
  it("passes text within the budget unchanged, joining the content items", () => {
    const output = {
      isError: false,
      content: [
        { type: "text", text: "one" },
        { type: "text", text: "two" },
      ],
    };
    expect(toolOutputForModel(output, 100)).toEqual({ type: "text", value: "one\ntwo" });
  });

  it("cuts text beyond the budget with a marker that says how much is missing", () => {
    const output = { isError: false, content: [{ type: "text", text: "é".repeat(30) }] };
    const { value } = toolOutputForModel(output, 10);
    expect(value.startsWith("é".repeat(10))).toBe(true);
    expect(value).toContain("[… truncated: 20 more characters. The full result is shown to the user.]");
    expect(withinBudget("x".repeat(12_345), 0)).toContain("12,345 more characters");
  });

  it("describes images and audio instead of sending their data, and reads embedded resources", () => {
    const data = "A".repeat(4096);
    const output = {
      isError: false,
      content: [
        { type: "image", data, mimeType: "image/png" },
        { type: "audio", data, mimeType: "audio/wav" },
        { type: "resource", resource: { uri: "file:///a.txt", text: "alpha" } },
        { type: "resource_link", uri: "file:///b.txt", name: "b" },
      ],
    };
    const { value } = toolOutputForModel(output, 1000);
    expect(value).toContain("[image: image/png, 3 KB; shown to the user]");
    expect(value).toContain("[audio: audio/wav, 3 KB; shown to the user]");
    expect(value).toContain("Resource file:///a.txt:\nalpha");
    expect(value).toContain("[resource link: file:///b.txt (b)]");
    expect(value).not.toContain(data);
  });

  it("keeps an error's message as error text, within the budget", () => {
    expect(
      toolOutputForModel({ isError: true, content: null, errorMessage: "Server timed out" }, 100),
    ).toEqual({
      type: "error-text",
      value: "Server timed out",
    });
    const long = {
      isError: true,
      content: [{ type: "text", text: "bad ".repeat(100) }],
      errorMessage: "bad",
    };
    const result = toolOutputForModel(long, 20);
    expect(result.type).toBe("error-text");
    expect(result.value).toContain("truncated");
  });

  it("sends structured results and plain values as JSON", () => {
    expect(toolOutputForModel({ isError: false, content: [], structuredContent: { n: 1 } }, 100)).toEqual({
      type: "text",
      value: '{"n":1}',
    });
    expect(toolOutputForModel({ nodes: ["a"] }, 100)).toEqual({ type: "text", value: '{"nodes":["a"]}' });
  });
});
