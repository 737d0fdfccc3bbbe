import { randomUUID } from "node:crypto";
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3StreamPart,
} from "@ai-sdk/provider";

const usage = {
  inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 0, text: 0, reasoning: 0 },
};

/** What the offline model decides to do for the conversation so far. */
export type OfflineReply =
  | { kind: "text"; text: string }
  | { kind: "tool-call"; toolName: string; input: string };

function textOfPart(part: unknown): string {
  return typeof part === "object" && part && (part as { type?: string }).type === "text"
    ? String((part as { text?: string }).text ?? "")
    : "";
}

/**
 * The model used when no LLM is configured: `/call <tool> {json}` becomes a real tool call in the same loop,
 * a tool's result is shown back, and anything else gets the list of tools and how to configure a model.
 */
export function planOfflineReply(options: LanguageModelV3CallOptions): OfflineReply {
  const tools = (options.tools ?? []).map((tool) => tool.name);
  const last = options.prompt.at(-1);
  if (last?.role === "tool") {
    const result = last.content.find((part) => part.type === "tool-result");
    if (result && result.type === "tool-result") {
      const output = result.output;
      if (output.type === "execution-denied") {
        return { kind: "text", text: `You denied \`${result.toolName}\`, so it did not run.` };
      }
      const value =
        output.type === "json" || output.type === "error-json"
          ? JSON.stringify(output.value, null, 2)
          : "value" in output
            ? String(output.value)
            : "";
      return { kind: "text", text: `Result of \`${result.toolName}\`:\n\n\`\`\`json\n${value}\n\`\`\`` };
    }
  }
  const lastUser = [...options.prompt].reverse().find((message) => message.role === "user");
  const text =
    lastUser && Array.isArray(lastUser.content) ? lastUser.content.map(textOfPart).join("").trim() : "";
  const call = /^\/call\s+([A-Za-z0-9_-]+)\s*([\s\S]*)$/.exec(text);
  if (call) {
    const [, toolName = "", rawArgs = ""] = call;
    if (!tools.includes(toolName)) {
      return {
        kind: "text",
        text: `There is no tool named \`${toolName}\`. Available tools: ${tools.map((t) => `\`${t}\``).join(", ") || "none"}.`,
      };
    }
    const args = rawArgs.trim() || "{}";
    try {
      const parsed = JSON.parse(args);
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
        throw new Error("not an object");
    } catch {
      return {
        kind: "text",
        text: `The arguments must be a JSON object, like \`/call ${toolName} {"key": "value"}\`.`,
      };
    }
    return { kind: "tool-call", toolName, input: args };
  }
  return {
    kind: "text",
    text: [
      "No language model is configured, so this chat runs in offline mode.",
      "",
      'Run a tool directly with `/call <tool_name> {"json": "args"}`. Available tools:',
      ...(tools.length ? tools.map((tool) => `- \`${tool}\``) : ["- (none)"]),
      "",
      "To chat with a model, set OPENAI_API_KEY (and OPENAI_BASE_URL for an OpenAI-compatible server such as Ollama or vLLM) and restart.",
    ].join("\n"),
  };
}

export function offlineModel(): LanguageModelV3 {
  return {
    specificationVersion: "v3",
    provider: "switchboard",
    modelId: "offline",
    supportedUrls: {},
    async doGenerate(options) {
      const reply = planOfflineReply(options);
      return reply.kind === "text"
        ? {
            content: [{ type: "text", text: reply.text }],
            finishReason: { unified: "stop", raw: "stop" },
            usage,
            warnings: [],
          }
        : {
            content: [
              {
                type: "tool-call",
                toolCallId: `offline-${randomUUID()}`,
                toolName: reply.toolName,
                input: reply.input,
              },
            ],
            finishReason: { unified: "tool-calls", raw: "tool_calls" },
            usage,
            warnings: [],
          };
    },
    async doStream(options) {
      const reply = planOfflineReply(options);
      const parts: LanguageModelV3StreamPart[] = [{ type: "stream-start", warnings: [] }];
      if (reply.kind === "text") {
        const id = `text-${randomUUID()}`;
        parts.push(
          { type: "text-start", id },
          { type: "text-delta", id, delta: reply.text },
          { type: "text-end", id },
        );
        parts.push({ type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage });
      } else {
        parts.push({
          type: "tool-call",
          toolCallId: `offline-${randomUUID()}`,
          toolName: reply.toolName,
          input: reply.input,
        });
        parts.push({ type: "finish", finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage });
      }
      return {
        stream: new ReadableStream({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  };
}
