import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { planOfflineReply } from "@/lib/chat/offline-model";

const tools = [
  { type: "function" as const, name: "everything_echo", inputSchema: { type: "object" as const } },
  { type: "function" as const, name: "knowledge_search", inputSchema: { type: "object" as const } },
];

const ask = (text: string): LanguageModelV3CallOptions => ({
  prompt: [{ role: "user", content: [{ type: "text", text }] }],
  tools,
});

describe("offline model", () => {
  it("turns /call into a real tool call with the JSON arguments", () => {
    expect(planOfflineReply(ask('/call everything_echo {"message": "hi"}'))).toEqual({
      kind: "tool-call",
      toolName: "everything_echo",
      input: '{"message": "hi"}',
    });
    expect(planOfflineReply(ask("/call knowledge_search"))).toEqual({
      kind: "tool-call",
      toolName: "knowledge_search",
      input: "{}",
    });
  });

  it("explains an unknown tool and arguments that are not a JSON object", () => {
    expect(planOfflineReply(ask("/call nope {}"))).toMatchObject({
      kind: "text",
      text: expect.stringMatching(/no tool named `nope`.*everything_echo/s),
    });
    expect(planOfflineReply(ask("/call everything_echo [1]"))).toMatchObject({
      kind: "text",
      text: expect.stringMatching(/JSON object/),
    });
    expect(planOfflineReply(ask("/call everything_echo {oops"))).toMatchObject({
      kind: "text",
      text: expect.stringMatching(/JSON object/),
    });
  });

  it("answers anything else with the tools and how to configure a model", () => {
    const reply = planOfflineReply(ask("hello"));
    expect(reply).toMatchObject({ kind: "text" });
    const text = reply.kind === "text" ? reply.text : "";
    expect(text).toContain("`everything_echo`");
    expect(text).toContain("OPENAI_API_KEY");
  });

  it("shows a tool's result after the call", () => {
    const reply = planOfflineReply({
      tools,
      prompt: [
        { role: "user", content: [{ type: "text", text: "/call everything_echo {}" }] },
        {
          role: "assistant",
          content: [{ type: "tool-call", toolCallId: "1", toolName: "everything_echo", input: {} }],
        },
        {
          role: "tool",
          content: [
            {
              type: "tool-result",
              toolCallId: "1",
              toolName: "everything_echo",
              output: { type: "json", value: { ok: true } },
            },
          ],
        },
      ],
    });
    expect(reply).toEqual({
      kind: "text",
      text: 'Result of `everything_echo`:\n\n```json\n{\n  "ok": true\n}\n```',
    });
  });

  it("says so when the user denied the call", () => {
    const reply = planOfflineReply({
      tools,
      prompt: [
        { role: "user", content: [{ type: "text", text: "/call everything_echo {}" }] },
        {
          role: "assistant",
          content: [{ type: "tool-call", toolCallId: "1", toolName: "everything_echo", input: {} }],
        },
        {
          role: "tool",
          content: [
            {
              type: "tool-result",
              toolCallId: "1",
              toolName: "everything_echo",
              output: { type: "execution-denied", reason: "The user denied this tool call." },
            },
          ],
        },
      ],
    });
    expect(reply).toEqual({ kind: "text", text: "You denied `everything_echo`, so it did not run." });
  });
});
