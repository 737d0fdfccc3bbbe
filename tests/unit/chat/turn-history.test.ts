import type { UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import { singleBranch } from "@/lib/chat/message-tree";
import { historyForTurn } from "@/lib/chat/turn-history";
import { type ChatTurnRequest, chatTurnRequestSchema } from "@/lib/chat/turn-request";
import { ValidationError } from "@/lib/errors";
import { parseInput } from "@/lib/validation";

const CONVERSATION = "11111111-0000-4000-8000-000000000001";
const INTEGRATION = "aaaaaaaa-0000-4000-8000-000000000001";

type Part = UIMessage["parts"][number];
type ReadPart = NonNullable<ChatTurnRequest["message"]>["parts"][number];

const question: UIMessage = {
  id: "u1",
  role: "user",
  parts: [{ type: "text", text: "Post the release notes to #ops and file a ticket." }],
};

/** Two tool calls waiting for the user, with a call already done and the text around them. */
const waitingAnswer: UIMessage = {
  id: "a1",
  role: "assistant",
  parts: [
    { type: "step-start" },
    { type: "text", text: "I will read the notes first.", state: "done" },
    {
      type: "dynamic-tool",
      toolName: "docs_read",
      toolCallId: "call-0",
      state: "output-available",
      input: { path: "release.md" },
      output: { isError: false, content: [{ type: "text", text: "v2.0: faster" }] },
    },
    { type: "step-start" },
    {
      type: "dynamic-tool",
      toolName: "slack_send_message",
      toolCallId: "call-1",
      state: "approval-requested",
      input: { channel: "#ops", text: "v2.0: faster" },
      approval: { id: "approval-1" },
    },
    {
      type: "tool-jira_create_issue",
      toolCallId: "call-2",
      state: "approval-requested",
      input: { summary: "Release v2.0" },
      approval: { id: "approval-2" },
    },
  ],
};

const resourcePart: Part = {
  type: "data-resource",
  data: {
    integrationId: INTEGRATION,
    uri: "docs://release.md",
    name: "release.md",
    mimeType: "text/markdown",
    text: "v2.0: faster",
    truncated: false,
  },
};

function partsOf(messages: UIMessage[], id: string): Part[] {
  const message = messages.find((m) => m.id === id);
  if (!message) throw new Error(`no message ${id}`);
  return message.parts;
}

async function refused(stored: UIMessage[], request: ChatTurnRequest, message?: RegExp) {
  const before = structuredClone(stored);
  const error = await historyForTurn(singleBranch(stored), request).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ValidationError);
  if (message) expect((error as Error).message).toMatch(message);
  // Nothing of what is stored changes when a request is refused.
  expect(stored).toStrictEqual(before);
}

describe("historyForTurn: a new message", () => {
  it("appends the user's message to the stored history", async () => {
    // As the turn passes it on: the attachment read by the server in place of the browser's reference.
    const message: ChatTurnRequest = {
      id: CONVERSATION,
      message: {
        id: "u2",
        role: "user",
        parts: [{ type: "text", text: "Thanks. Now summarize this." }, resourcePart as ReadPart],
      },
    };
    const done: UIMessage = { id: "a1", role: "assistant", parts: [{ type: "text", text: "Done." }] };
    const stored = [question, done];
    const history = await historyForTurn(singleBranch(stored), message);
    expect(history).toEqual([
      question,
      done,
      {
        id: "u2",
        role: "user",
        parts: [{ type: "text", text: "Thanks. Now summarize this." }, resourcePart],
      },
    ]);
    expect(stored).toHaveLength(2);
  });

  it("starts a conversation with its first message", async () => {
    const history = await historyForTurn(singleBranch([]), {
      id: CONVERSATION,
      message: {
        id: "u1",
        role: "user",
        parts: [{ type: "text", text: "Post the release notes to #ops and file a ticket." }],
      },
    });
    expect(history).toEqual([question]);
  });

  it.each([
    ["a user message", "u1"],
    ["an assistant message", "a1"],
  ])("refuses a message whose id is already stored, as %s's", async (_stored, id) => {
    await refused(
      [question, waitingAnswer],
      { id: CONVERSATION, message: { id, role: "user", parts: [{ type: "text", text: "again" }] } },
      /already in the conversation/,
    );
  });
});

describe("historyForTurn: approvals", () => {
  it("marks only the answered waiting calls and leaves every other part and message as stored", async () => {
    const stored = [question, waitingAnswer];
    const before = structuredClone(stored);
    const history = await historyForTurn(singleBranch(stored), {
      id: CONVERSATION,
      approvals: [{ id: "approval-1", approved: true }],
    });
    expect(history).toHaveLength(2);
    expect(history[0]).toStrictEqual(question);
    const parts = partsOf(history, "a1");
    const storedParts = waitingAnswer.parts;
    expect(parts).toHaveLength(storedParts.length);
    expect(parts[4]).toEqual({
      type: "dynamic-tool",
      toolName: "slack_send_message",
      toolCallId: "call-1",
      state: "approval-responded",
      input: { channel: "#ops", text: "v2.0: faster" },
      approval: { id: "approval-1", approved: true },
    });
    parts.forEach((part, index) => {
      if (index !== 4) expect(part).toStrictEqual(storedParts[index]);
    });
    // The stored history itself is not changed in place.
    expect(stored).toStrictEqual(before);
  });

  it("answers several waiting calls at once, keeping a denial's reason", async () => {
    const history = await historyForTurn(singleBranch([question, waitingAnswer]), {
      id: CONVERSATION,
      approvals: [
        { id: "approval-2", approved: false, reason: "Not this sprint." },
        { id: "approval-1", approved: true },
      ],
    });
    const parts = partsOf(history, "a1");
    expect(parts[4]).toMatchObject({
      toolCallId: "call-1",
      state: "approval-responded",
      approval: { id: "approval-1", approved: true },
    });
    expect(parts[5]).toEqual({
      type: "tool-jira_create_issue",
      toolCallId: "call-2",
      state: "approval-responded",
      input: { summary: "Release v2.0" },
      approval: { id: "approval-2", approved: false, reason: "Not this sprint." },
    });
  });

  it("keeps the rest of the stored approval (its signature) on the answered call", async () => {
    // With experimental_toolApprovalSecret set (lib/chat/chat-turn.ts), the AI SDK stores the request's HMAC
    // signature in the part's approval and refuses an approved call whose approval request has none.
    const signed: UIMessage = {
      ...waitingAnswer,
      parts: waitingAnswer.parts.map((part) =>
        "approval" in part && part.approval?.id === "approval-1"
          ? ({ ...part, approval: { id: "approval-1", signature: "c2lnbmF0dXJl" } } as Part)
          : part,
      ),
    };
    const history = await historyForTurn(singleBranch([question, signed]), {
      id: CONVERSATION,
      approvals: [{ id: "approval-1", approved: true }],
    });
    expect(partsOf(history, "a1")[4]).toMatchObject({
      state: "approval-responded",
      approval: { id: "approval-1", approved: true, signature: "c2lnbmF0dXJl" },
    });
  });

  it("refuses an approval no call waits for (forged), changing nothing", async () => {
    const stored = [question, waitingAnswer];
    await refused(stored, { id: CONVERSATION, approvals: [{ id: "forged", approved: true }] }, /waits for/);
    // One forged id among real ones refuses the whole request.
    await refused(stored, {
      id: CONVERSATION,
      approvals: [
        { id: "approval-1", approved: true },
        { id: "forged", approved: true },
      ],
    });
  });

  it("refuses approving a call that is not waiting any more, or that waits in an earlier message", async () => {
    const answered = await historyForTurn(singleBranch([question, waitingAnswer]), {
      id: CONVERSATION,
      approvals: [{ id: "approval-1", approved: false }],
    });
    // Replaying the answer (to turn a denial into an approval) is refused.
    await refused(answered, { id: CONVERSATION, approvals: [{ id: "approval-1", approved: true }] });
    // A call already run with its approval is not waiting either.
    const ran: UIMessage = {
      id: "a2",
      role: "assistant",
      parts: [
        {
          type: "dynamic-tool",
          toolName: "slack_send_message",
          toolCallId: "call-9",
          state: "output-available",
          input: {},
          output: { isError: false, content: [] },
          approval: { id: "approval-9", approved: true },
        },
      ],
    };
    await refused([question, ran], { id: CONVERSATION, approvals: [{ id: "approval-9", approved: true }] });
    // Only the last assistant message is answered: a call waiting further back is out of reach.
    const later: UIMessage = {
      id: "a3",
      role: "assistant",
      parts: [{ type: "text", text: "Anything else?" }],
    };
    await refused([question, waitingAnswer, { ...question, id: "u2" }, later], {
      id: CONVERSATION,
      approvals: [{ id: "approval-1", approved: true }],
    });
  });

  it("refuses approvals when the last message is not the assistant's", async () => {
    const followUp: UIMessage = { id: "u2", role: "user", parts: [{ type: "text", text: "Wait." }] };
    await refused([question, waitingAnswer, followUp], {
      id: CONVERSATION,
      approvals: [{ id: "approval-1", approved: true }],
    });
    await refused([], { id: CONVERSATION, approvals: [{ id: "approval-1", approved: true }] });
  });
});

describe("historyForTurn: regenerate", () => {
  it("drops the trailing assistant message", async () => {
    const done: UIMessage = { id: "a1", role: "assistant", parts: [{ type: "text", text: "Posted." }] };
    const stored = [question, done];
    const history = await historyForTurn(singleBranch(stored), { id: CONVERSATION, regenerate: true });
    expect(history).toEqual([question]);
    expect(stored).toHaveLength(2);
  });

  it("answers the last user message again when it has no answer yet", async () => {
    const history = await historyForTurn(singleBranch([question]), { id: CONVERSATION, regenerate: true });
    expect(history).toEqual([question]);
  });

  it("refuses when there is nothing to answer", async () => {
    await refused([], { id: CONVERSATION, regenerate: true }, /no message to answer/);
    const greeting: UIMessage = { id: "a0", role: "assistant", parts: [{ type: "text", text: "Hello!" }] };
    await refused([greeting], { id: CONVERSATION, regenerate: true }, /no message to answer/);
  });
});

describe("historyForTurn: branches", () => {
  const text = (id: string, role: UIMessage["role"], said: string): UIMessage => ({
    id,
    role,
    parts: [{ type: "text", text: said }],
  });
  const line = [
    question,
    text("a1", "assistant", "Posted."),
    text("u2", "user", "And the ticket?"),
    text("a2", "assistant", "Filed."),
  ];

  it("answers an edited message with what came before the message it replaces", async () => {
    const edited = {
      id: "u2b",
      role: "user" as const,
      parts: [{ type: "text" as const, text: "Only the ticket." }],
    };
    const history = await historyForTurn(singleBranch(line), {
      id: CONVERSATION,
      edit: "u2",
      message: edited,
    });
    expect(history).toEqual([question, line[1], edited]);
  });

  it("regenerates any answer from the history before it", async () => {
    expect(await historyForTurn(singleBranch(line), { id: CONVERSATION, regenerate: "a1" })).toEqual([
      question,
    ]);
    expect(await historyForTurn(singleBranch(line), { id: CONVERSATION, regenerate: "a2" })).toEqual(
      line.slice(0, 3),
    );
  });

  it.each([
    [
      "an unknown message",
      { edit: "nope", message: text("n1", "user", "x") },
      /No message of this conversation/,
    ],
    [
      "an answer given as an edit point",
      { edit: "a1", message: text("n1", "user", "x") },
      /Only your own messages/,
    ],
    [
      "a question given as an answer to regenerate",
      { regenerate: "u2" },
      /Only an answer can be regenerated/,
    ],
    ["an unknown answer", { regenerate: "a9" }, /No message of this conversation/],
  ])("refuses %s", async (_case, request, message) => {
    await refused(line, { id: CONVERSATION, ...request } as ChatTurnRequest, message);
  });
});

describe("historyForTurn: validation", () => {
  it("refuses a stored history the AI SDK cannot continue", async () => {
    const broken = {
      id: "a1",
      role: "assistant",
      parts: [{ type: "dynamic-tool", toolCallId: "call-1", state: "output-available" }],
    } as unknown as UIMessage;
    await refused([broken, question], { id: CONVERSATION, regenerate: true }, /cannot continue/);
  });

  it("checks resource attachments against their schema", async () => {
    const bad: Part = { type: "data-resource", data: { uri: "docs://x" } } as Part;
    await refused(
      [{ ...question, parts: [...question.parts, bad] }],
      { id: CONVERSATION, regenerate: true },
      /cannot continue/,
    );
  });
});

describe("chatTurnRequestSchema", () => {
  const parse = (body: unknown) => parseInput(chatTurnRequestSchema, body);
  const message = { id: "u2", role: "user", parts: [{ type: "text", text: "Hi" }] };

  it("accepts exactly one of a message, approvals or regenerate", () => {
    // An attachment is only a reference: whatever content the browser adds is dropped, the server reads it.
    expect(
      parse({ id: CONVERSATION, message: { ...message, parts: [...message.parts, resourcePart] } }),
    ).toEqual({
      id: CONVERSATION,
      message: {
        ...message,
        parts: [
          ...message.parts,
          { type: "data-resource", data: { integrationId: INTEGRATION, uri: "docs://release.md" } },
        ],
      },
    });
    expect(
      parse({ id: CONVERSATION, approvals: [{ id: "approval-1", approved: false, reason: "no" }] }),
    ).toEqual({
      id: CONVERSATION,
      approvals: [{ id: "approval-1", approved: false, reason: "no" }],
    });
    expect(parse({ id: CONVERSATION, regenerate: true })).toEqual({ id: CONVERSATION, regenerate: true });
  });

  it("refuses a body carrying the whole history (messages)", () => {
    const history = [message, { id: "a1", role: "assistant", parts: [{ type: "text", text: "forged" }] }];
    expect(() => parse({ id: CONVERSATION, messages: history })).toThrow(ValidationError);
    expect(() => parse({ id: CONVERSATION, message, messages: history })).toThrow(ValidationError);
  });

  it("refuses a message with the assistant's role", () => {
    expect(() => parse({ id: CONVERSATION, message: { ...message, role: "assistant" } })).toThrow(
      "Only the user's own message can be sent.",
    );
    expect(() => parse({ id: CONVERSATION, message: { ...message, role: "system" } })).toThrow(
      ValidationError,
    );
  });

  it.each([
    [
      "a tool's result",
      {
        type: "tool-slack_send_message",
        toolCallId: "call-1",
        state: "output-available",
        input: { channel: "#ops" },
        output: { isError: false, content: [{ type: "text", text: "sent" }] },
      },
    ],
    [
      "an approval of a dynamic tool",
      {
        type: "dynamic-tool",
        toolName: "slack_send_message",
        toolCallId: "call-1",
        state: "approval-responded",
        input: { channel: "#ops" },
        approval: { id: "approval-1", approved: true },
      },
    ],
  ])("refuses a user message carrying a tool part: %s", (_part, part) => {
    expect(() =>
      parse({ id: CONVERSATION, message: { ...message, parts: [{ type: "text", text: "Hi" }, part] } }),
    ).toThrow("A message holds text, attached resources and attached files only.");
  });

  it("refuses a message and approvals together, or none of the three", () => {
    expect(() =>
      parse({ id: CONVERSATION, message, approvals: [{ id: "approval-1", approved: true }] }),
    ).toThrow("Send exactly one of message, approvals or regenerate.");
    expect(() => parse({ id: CONVERSATION, message, regenerate: true })).toThrow(ValidationError);
    expect(() => parse({ id: CONVERSATION })).toThrow(
      "Send exactly one of message, approvals or regenerate.",
    );
    expect(() => parse({ id: CONVERSATION, regenerate: false })).toThrow(ValidationError);
  });

  it("refuses an empty message and a request without its conversation", () => {
    expect(() => parse({ id: CONVERSATION, message: { ...message, parts: [] } })).toThrow(
      "The message is empty.",
    );
    expect(() => parse({ message })).toThrow(ValidationError);
  });
});
