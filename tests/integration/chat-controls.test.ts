import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { UserContext } from "@/lib/auth/context";
import { ensureDefaultAgent } from "@/lib/chat/agents";
import { applyConversationControls } from "@/lib/chat/conversation-controls";
import { renderConversationPrompt } from "@/lib/chat/conversation-prompts";
import { allowToolForConversation, setToolToggles } from "@/lib/chat/conversation-settings";
import { conversationView } from "@/lib/chat/conversation-view";
import { createConversation, getConversation } from "@/lib/chat/conversations";
import { prepareConversation } from "@/lib/chat/prepare-conversation";
import { attachmentForModel, readResourceAttachment } from "@/lib/chat/resource-attachments";
import type { AppError } from "@/lib/errors";
import { getMcpClient } from "@/lib/mcp/client/shared-client";
import { createIntegration } from "@/lib/mcp/integrations/create-integration";
import { appErrorOf } from "./app-error";
import { registerOwners } from "./org-users";
import { createTestDatabase } from "./test-db";

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let a: UserContext;
let b: UserContext;
let integrationId: string;

beforeAll(async () => {
  handle = await createTestDatabase();
  [a, b] = (await registerOwners(handle.db, "Ada", "Bo")) as [UserContext, UserContext];
  integrationId = (await createIntegration(handle.db, a, { source: "catalog", presetKey: "everything" })).id;
}, 60_000);
afterAll(async () => {
  await getMcpClient().pool.closeAll();
  await handle?.close();
});

const statusOf = async (promise: Promise<unknown>) => (await appErrorOf(promise)).status;

async function startedConversation(ctx: UserContext) {
  const agent = await ensureDefaultAgent(handle.db, ctx.orgId);
  const conversation = await createConversation(handle.db, ctx, agent.id);
  await prepareConversation(handle.db, ctx, conversation);
  return getConversation(handle.db, ctx, conversation.id);
}

describe("a conversation's tool switches and approvals", () => {
  it("leaves switched-off integrations and tools out of what the model gets, and shows them as off", async () => {
    const conversation = await startedConversation(a);
    await setToolToggles(handle.db, a, conversation.id, {
      disabledIntegrationIds: [],
      disabledTools: ["everything_echo"],
    });
    let current = await getConversation(handle.db, a, conversation.id);
    let prepared = await prepareConversation(handle.db, a, current);
    expect(Object.keys(prepared.active.tools)).not.toContain("everything_echo");
    expect(Object.keys(prepared.active.tools)).toContain("everything_get-sum");
    expect(Object.keys(prepared.active.tools)).toContain("node_knowledge_retriever");
    const view = conversationView(prepared.agent, current, prepared.features, prepared.discovery);
    expect(view.tools.find((t) => t.name === "everything_echo")).toMatchObject({
      enabled: false,
      integrationId,
    });
    expect(view.tools.find((t) => t.name === "everything_get-sum")?.enabled).toBe(true);

    await setToolToggles(handle.db, a, conversation.id, {
      disabledIntegrationIds: [integrationId],
      disabledTools: [],
    });
    current = await getConversation(handle.db, a, conversation.id);
    prepared = await prepareConversation(handle.db, a, current);
    expect(Object.keys(prepared.active.tools).filter((name) => name.startsWith("everything_"))).toEqual([]);
    expect(prepared.active.resources).toEqual([]);
    expect(prepared.active.prompts).toEqual([]);
    expect(Object.keys(prepared.active.tools)).toContain("node_knowledge_retriever");
  });

  it("refuses bad toggles with a clear message, and keeps other users out", async () => {
    const conversation = await startedConversation(a);
    await expect(
      setToolToggles(handle.db, a, conversation.id, { disabledIntegrationIds: ["nope"], disabledTools: [] }),
    ).rejects.toThrow(/UUID/);
    await expect(
      setToolToggles(handle.db, a, conversation.id, {
        disabledIntegrationIds: [],
        disabledTools: ["no spaces"],
      }),
    ).rejects.toThrow(/not a tool name/);
    expect(
      await statusOf(
        setToolToggles(handle.db, b, conversation.id, { disabledIntegrationIds: [], disabledTools: [] }),
      ),
    ).toBe(404);
    expect(await statusOf(allowToolForConversation(handle.db, b, conversation.id, "everything_echo"))).toBe(
      404,
    );
  });

  it("asks for approval on every tool until one is allowed for the conversation", async () => {
    const conversation = await startedConversation(a);
    const { features } = await prepareConversation(handle.db, a, conversation);
    const controls = {
      disabledIntegrationIds: [],
      disabledTools: [],
      toolApproval: "always" as const,
      approvedTools: conversation.approvedTools,
    };
    expect(applyConversationControls(features, controls).tools.everything_echo?.needsApproval).toBe(true);

    await allowToolForConversation(handle.db, a, conversation.id, "everything_echo");
    await allowToolForConversation(handle.db, a, conversation.id, "everything_echo");
    const approved = (await getConversation(handle.db, a, conversation.id)).approvedTools;
    expect(approved).toEqual(["everything_echo"]);
    const after = applyConversationControls(features, { ...controls, approvedTools: approved });
    // Allowed for the conversation: new calls run at once, a call already asked about stays approvable.
    const check = after.tools.everything_echo?.needsApproval;
    if (typeof check !== "function") throw new Error("expected a function");
    const asked = [
      {
        role: "assistant" as const,
        content: [{ type: "tool-approval-request" as const, approvalId: "a1", toolCallId: "call-1" }],
      },
    ];
    expect(await check({}, { toolCallId: "call-2", messages: asked })).toBe(false);
    expect(await check({}, { toolCallId: "call-1", messages: asked })).toBe(true);
    expect(after.tools["everything_get-sum"]?.needsApproval).toBe(true);
  });
});

describe("resources and prompts in a conversation", () => {
  it("reads a resource of the conversation to attach, and gives the model its text", async () => {
    const conversation = await startedConversation(a);
    const { active } = await prepareConversation(handle.db, a, conversation);
    const resource = active.resources.find((r) => r.uri.startsWith("demo://resource/static/document/"));
    if (!resource) throw new Error("no static document");
    const attachment = await readResourceAttachment(handle.db, a, active, {
      integrationId,
      uri: resource.uri,
    });
    expect(attachment).toMatchObject({
      integrationId,
      uri: resource.uri,
      name: resource.name,
      truncated: false,
    });
    expect(attachment.text.length).toBeGreaterThan(0);
    const forModel = attachmentForModel(attachment);
    expect(forModel?.text).toContain(`Attached resource "${resource.name}" (${resource.uri})`);
    expect(forModel?.text).toContain(attachment.text);
    expect(attachmentForModel({ uri: 42 })).toBeUndefined();

    // Only the conversation's own resources can be attached.
    expect(
      await statusOf(
        readResourceAttachment(handle.db, a, active, { integrationId, uri: "file:///etc/passwd" }),
      ),
    ).toBe(404);
    const other = await startedConversation(b);
    const otherActive = (await prepareConversation(handle.db, b, other)).active;
    expect(
      await statusOf(readResourceAttachment(handle.db, b, otherActive, { integrationId, uri: resource.uri })),
    ).toBe(404);
    await expect(
      readResourceAttachment(handle.db, a, active, { integrationId: "x", uri: "" }),
    ).rejects.toThrow(/Choose a resource/);
  });

  it("renders a prompt with its arguments into messages, and asks for missing required ones", async () => {
    const conversation = await startedConversation(a);
    const { active } = await prepareConversation(handle.db, a, conversation);
    const messages = await renderConversationPrompt(handle.db, a, active, {
      integrationId,
      name: "args-prompt",
      arguments: { city: " Lisbon ", state: "", ignored: "x" },
    });
    expect(messages).toEqual([
      { id: expect.any(String), role: "user", parts: [{ type: "text", text: "What's weather in Lisbon?" }] },
    ]);
    const missing = await renderConversationPrompt(handle.db, a, active, {
      integrationId,
      name: "args-prompt",
      arguments: {},
    }).catch((error: AppError) => error);
    expect(missing).toMatchObject({ status: 400, message: "Fill in city." });
    expect(
      await statusOf(
        renderConversationPrompt(handle.db, a, active, { integrationId, name: "nope", arguments: {} }),
      ),
    ).toBe(404);
  });
});
