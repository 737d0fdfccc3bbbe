import type { UIMessage } from "ai";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { UserContext } from "@/lib/auth/context";
import { ensureDefaultAgent } from "@/lib/chat/agents";
import { chatTurn } from "@/lib/chat/chat-turn";
import {
  createConversation,
  deleteConversation,
  getConversation,
  loadMessages,
  saveMessages,
} from "@/lib/chat/conversations";
import { type AppError, ValidationError } from "@/lib/errors";
import { registerOwners } from "./org-users";
import { createTestDatabase } from "./test-db";

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let a: UserContext;
beforeAll(async () => {
  handle = await createTestDatabase();
  [a] = (await registerOwners(handle.db, "Nul")) as [UserContext];
});
afterAll(() => handle?.close());
afterEach(() => vi.restoreAllMocks());

const newConversation = async () =>
  createConversation(handle.db, a, (await ensureDefaultAgent(handle.db, a.orgId)).id);

/** Everything written to stdout, stderr and the console while `work` runs. */
async function captureOutput(work: () => Promise<unknown>): Promise<string> {
  const written: string[] = [];
  const keep = (...values: unknown[]) => {
    written.push(values.map((value) => (typeof value === "string" ? value : String(value))).join(" "));
    return true;
  };
  vi.spyOn(process.stdout, "write").mockImplementation(keep);
  vi.spyOn(process.stderr, "write").mockImplementation(keep);
  for (const method of ["log", "info", "warn", "error", "debug"] as const)
    vi.spyOn(console, method).mockImplementation(keep);
  try {
    await work();
  } finally {
    vi.restoreAllMocks();
  }
  return written.join("\n");
}

describe("saving a conversation with NUL characters", () => {
  it("stores a tool output, a text and a key that hold NUL (or half a surrogate pair) instead of failing the save", async () => {
    const conversation = await newConversation();
    const messages = [
      { id: "u1", role: "user", parts: [{ type: "text", text: "first\u0000words" }] },
      {
        id: "a1",
        role: "assistant",
        parts: [
          {
            type: "tool-echo",
            toolCallId: "call-1",
            state: "output-available",
            input: { message: "x" },
            output: {
              content: [{ type: "text", text: "binary\u0000data" }],
              "odd\u0000key": 1,
              half: "\ud800",
            },
          },
          { type: "text", text: "It said binary\u0000data, and a \\u0000 escape stays as it is." },
        ],
      },
    ] as UIMessage[];
    await expect(saveMessages(handle.db, conversation, messages)).resolves.not.toThrow();
    const stored = await loadMessages(handle.db, conversation.id);
    expect(stored).toHaveLength(2);
    const tool = stored[1]?.parts[0] as { output: Record<string, unknown> };
    expect(tool.output).toEqual({
      content: [{ type: "text", text: "binary\ufffddata" }],
      "odd\ufffdkey": 1,
      half: "\ufffd",
    });
    expect(stored[1]?.parts[1]).toEqual({
      type: "text",
      text: "It said binary\ufffddata, and a \\u0000 escape stays as it is.",
    });
    expect((await getConversation(handle.db, a, conversation.id)).title).toBe("first\ufffdwords");
  });

  it("refuses a user's message with a NUL character with a 400 that says so", async () => {
    const conversation = await newConversation();
    const error = await chatTurn(handle.db, a, {
      id: conversation.id,
      message: { id: "m1", role: "user", parts: [{ type: "text", text: "hello\u0000there" }] },
    }).then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as AppError).status).toBe(400);
    expect((error as AppError).message).toMatch(/NUL/);
    expect(await loadMessages(handle.db, conversation.id)).toEqual([]);
  });
});

describe("a save that fails", () => {
  it("is logged through the logger with a short error, never the messages, and does not throw", async () => {
    const conversation = await newConversation();
    // The conversation is gone by the time its turn ends: the insert of its messages fails.
    await deleteConversation(handle.db, a, conversation.id);
    const messages: UIMessage[] = [
      {
        id: "u1",
        role: "user",
        parts: [{ type: "text", text: "my password is hunter2-conversation-secret, keep it" }],
      },
      { id: "a1", role: "assistant", parts: [{ type: "text", text: "Noted: hunter2-conversation-secret." }] },
    ];
    let outcome: unknown = "not run";
    const output = await captureOutput(async () => {
      outcome = await saveMessages(handle.db, conversation, messages).then(
        () => "saved",
        (error: unknown) => error,
      );
    });
    expect(outcome).toBe("saved");
    expect(output).not.toContain("hunter2-conversation-secret");
    expect(output).not.toMatch(/\n\s+at /);
    const lines = output
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const line = lines.find((entry) => entry.msg === "conversation not saved");
    expect(line).toMatchObject({ level: "error", conversationId: conversation.id });
    expect(JSON.stringify(line).length).toBeLessThan(2_000);
  });
});
