import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { UserContext } from "@/lib/auth/context";
import { getMcpClient } from "@/lib/mcp/client/shared-client";
import { createIntegration } from "@/lib/mcp/integrations/create-integration";
import { type RunningFixture, startFixture } from "../fixtures/mcp/start-fixture";
import { chatFileRequests } from "./chat-file-requests";
import { useDatabase } from "./gateway-client";
import { registerOwners } from "./org-users";
import { modelRequests, newChat, postChatTurn, scriptAnswers, startChatModel } from "./scripted-chat";
import { createTestDatabase } from "./test-db";

const signedIn = vi.hoisted(() => ({ ctx: undefined as UserContext | undefined }));
// The chat's user is whoever the test signs in.
vi.mock("@/lib/auth/request-context", () => ({
  getUserContext: async () => null,
  requireSignedInUser: async () => signedIn.ctx,
}));

const model = await startChatModel();
let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let owner: UserContext;
let fixture: RunningFixture;

beforeAll(async () => {
  handle = await createTestDatabase();
  useDatabase(handle);
  [owner] = (await registerOwners(handle.db, "Fay")) as [UserContext];
  signedIn.ctx = owner;
  fixture = await startFixture("file-taker");
  await createIntegration(handle.db, owner, {
    source: "custom",
    name: "Files",
    transport: "streamable-http",
    url: fixture.url,
    timeoutMs: 10_000,
  });
}, 60_000);
afterAll(async () => {
  useDatabase(undefined);
  await getMcpClient().pool.closeAll();
  await fixture?.stop();
  await model.stop();
  await handle?.close();
});

const NOTE = Buffer.from("Quarterly numbers: 42\n");
const digest = (bytes: Buffer) =>
  `${bytes.length} bytes, sha256 ${createHash("sha256").update(bytes).digest("hex")}`;

const { uploaded } = chatFileRequests(signedIn);

async function conversationWithFile(name: string, bytes: Buffer) {
  const { conversation } = await newChat(handle.db, owner);
  const { fileId } = await uploaded(owner, conversation.id, name, bytes);
  return { id: conversation.id, fileId };
}

function turnWith(id: string, fileId: string | undefined, text: string) {
  const parts: unknown[] = [{ type: "text", text }];
  if (fileId) parts.push({ type: "data-file", data: { fileId } });
  return postChatTurn({ id, message: { id: crypto.randomUUID(), role: "user", parts } });
}

type SentMessage = { role: string; content: unknown };

describe("a file handed to a tool that takes one", () => {
  it("reaches the tool as a data URI with its name, or as base64, when the model passes the file's handle", async () => {
    const { id, fileId } = await conversationWithFile("numbers.txt", NOTE);
    await scriptAnswers(model.baseUrl, [
      {
        toolCalls: [
          { name: "files_file_digest", arguments: { file: `chat-file:${fileId}` } },
          { name: "files_base64_digest", arguments: { data: `chat-file:${fileId}` } },
        ],
      },
      { text: "Done." },
    ]);
    const streamed = await (await turnWith(id, fileId, "What is in the file?")).text();
    expect(streamed).toContain(`numbers.txt (text/plain): ${digest(NOTE)}`);
    expect(streamed.match(new RegExp(digest(NOTE), "g"))).toHaveLength(2);
    // The model was told the handle, beside the agent's instructions.
    const [first] = await modelRequests<{ messages: SentMessage[] }>(model.baseUrl);
    const system = first?.messages.find((message) => message.role === "system");
    expect(String(system?.content)).toContain("organization's assistant");
    expect(String(system?.content)).toContain(`"numbers.txt" (text/plain, 22 B): chat-file:${fileId}`);
  });

  it("refuses, as an error the model reads, the handle of a file of another conversation", async () => {
    const elsewhere = await conversationWithFile("secret.txt", Buffer.from("not for this conversation"));
    const { id } = await conversationWithFile("mine.txt", NOTE);
    await scriptAnswers(model.baseUrl, [
      { toolCalls: [{ name: "files_file_digest", arguments: { file: `chat-file:${elsewhere.fileId}` } }] },
      { text: "That file is not here." },
    ]);
    const streamed = await (await turnWith(id, undefined, "Digest the other file.")).text();
    expect(streamed).toContain(`chat-file:${elsewhere.fileId} is not a file attached in this conversation`);
    expect(streamed).not.toContain("sha256");
    expect(streamed).toContain('"type":"tool-output-available"');
    expect(streamed).toContain(" not here.");
  });

  it("passes any other value (a link the model wrote) as it is", async () => {
    const { id, fileId } = await conversationWithFile("plain.txt", NOTE);
    await scriptAnswers(model.baseUrl, [
      { toolCalls: [{ name: "files_file_digest", arguments: { file: "https://example.com/a.txt" } }] },
      { text: "Done." },
    ]);
    const streamed = await (await turnWith(id, fileId, "Digest a link.")).text();
    expect(streamed).toContain("Not a data URI: https://example.com/a.txt");
  });
});
