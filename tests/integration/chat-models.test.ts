import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { UserContext } from "@/lib/auth/context";
import {
  chooseConversationModel,
  conversationModels,
  organizationChatModels,
  setOrganizationChatModels,
} from "@/lib/chat/chat-models";
import { getConversation, loadMessages } from "@/lib/chat/conversations";
import { endpointModels, readEndpointModels } from "@/lib/chat/endpoint-models";
import { appErrorOf } from "./app-error";
import { useDatabase } from "./gateway-client";
import { registerOwnerMemberAndOther } from "./org-users";
import { modelRequests, newChat, postChatTurn, startChatModel } from "./scripted-chat";
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
let member: UserContext;
let other: UserContext;

beforeAll(async () => {
  handle = await createTestDatabase();
  useDatabase(handle);
  ({ owner, member, other } = await registerOwnerMemberAndOther(handle.db));
}, 60_000);
afterAll(async () => {
  useDatabase(undefined);
  await model.stop();
  await handle?.close();
});

const post = (path: string, body: unknown) =>
  fetch(`${model.baseUrl}${path}`, { method: "POST", body: JSON.stringify(body) });
const received = () => modelRequests<{ model: string }>(model.baseUrl);
const newConversation = (ctx: UserContext) => newChat(handle.db, ctx);

function turn(ctx: UserContext, body: Record<string, unknown>) {
  signedIn.ctx = ctx;
  return postChatTurn(body);
}

describe("the models an organization allows", () => {
  it("are read from the endpoint's /models, with a reason instead when it lists none", async () => {
    await post("/__models", { models: ["scripted-model", "scripted-large", "scripted-large"] });
    expect(await endpointModels()).toEqual({
      configured: true,
      listed: ["scripted-large", "scripted-model"],
    });
    await post("/__models", { models: null });
    expect(await readEndpointModels(`${model.baseUrl}/v1`, undefined)).toEqual({
      configured: true,
      listed: null,
      reason: "The endpoint answered /models with HTTP 404.",
    });
    expect(await readEndpointModels("http://127.0.0.1:9/v1", undefined)).toMatchObject({
      listed: null,
      reason: "The endpoint could not be reached for its /models list.",
    });
    await post("/__models", { models: ["scripted-model", "scripted-large"] });
  });

  it("are set by owners and admins only, checked, and kept per organization", async () => {
    expect(await setOrganizationChatModels(handle.db, owner, [" scripted-large ", "scripted-large"])).toEqual(
      ["scripted-large"],
    );
    expect((await appErrorOf(setOrganizationChatModels(handle.db, member, ["x"]))).status).toBe(403);
    const bad = await appErrorOf(setOrganizationChatModels(handle.db, owner, ["no spaces please"]));
    expect(bad.status).toBe(400);
    expect(bad.message).toContain("A model name holds letters, digits");
    expect(await organizationChatModels(handle.db, owner)).toEqual(["scripted-large"]);
    expect(await organizationChatModels(handle.db, other)).toEqual([]);
  });

  it("are offered in a conversation after the agent's own, which is the default", async () => {
    const { agent, conversation } = await newConversation(member);
    expect(await conversationModels(handle.db, member, conversation, agent.model)).toEqual({
      agentDefault: "scripted-model",
      models: ["scripted-model", "scripted-large"],
      chosen: "scripted-model",
      textOnly: [],
    });
    expect(
      await chooseConversationModel(handle.db, member, conversation, agent.model, "scripted-large"),
    ).toBe("scripted-large");
    expect((await getConversation(handle.db, member, conversation.id)).model).toBe("scripted-large");
    const refused = await appErrorOf(
      chooseConversationModel(handle.db, member, conversation, agent.model, "gpt-5-pro"),
    );
    expect(refused.status).toBe(400);
    expect(refused.message).toBe(
      'Your organization does not allow the model "gpt-5-pro". Choose one of: scripted-model, scripted-large.',
    );
    expect((await getConversation(handle.db, member, conversation.id)).model).toBe("scripted-large");
    // Another organization allows no other model.
    const elsewhere = await newConversation(other);
    expect(
      (
        await appErrorOf(
          chooseConversationModel(handle.db, other, elsewhere.conversation, null, "scripted-large"),
        )
      ).status,
    ).toBe(400);
  });
});

describe("a chat turn", () => {
  it("asks the endpoint for the chosen model, and stores it and the reported tokens with the answer", async () => {
    const { conversation } = await newConversation(member);
    await post("/__script", {
      steps: [{ text: "From the large one.", usage: { prompt_tokens: 120, completion_tokens: 30 } }],
    });
    const response = await turn(member, {
      id: conversation.id,
      model: "scripted-large",
      message: { id: "m1", role: "user", parts: [{ type: "text", text: "Which model?" }] },
    });
    expect(response.status).toBe(200);
    // The browser learns the answer's model and tokens as the turn ends.
    expect(await response.text()).toContain(
      '"messageMetadata":{"model":"scripted-large","inputTokens":120,"outputTokens":30}',
    );
    expect((await received()).map((request) => request.model)).toEqual(["scripted-large"]);
    await vi.waitFor(async () => expect(await loadMessages(handle.db, conversation.id)).toHaveLength(2));
    const [, answer] = await loadMessages(handle.db, conversation.id);
    expect(answer?.metadata).toEqual({ model: "scripted-large", inputTokens: 120, outputTokens: 30 });
    expect((await getConversation(handle.db, member, conversation.id)).model).toBe("scripted-large");

    // The next turn names no model: the conversation's choice stands; the earlier answer keeps its facts.
    await post("/__script", { steps: [{ text: "Still large." }] });
    const next = await turn(member, {
      id: conversation.id,
      message: { id: "m2", role: "user", parts: [{ type: "text", text: "Again?" }] },
    });
    expect(await next.text()).toContain('"messageMetadata":{"model":"scripted-large"}');
    expect((await received()).map((request) => request.model)).toEqual(["scripted-large"]);
    await vi.waitFor(async () => expect(await loadMessages(handle.db, conversation.id)).toHaveLength(4));
    const messages = await loadMessages(handle.db, conversation.id);
    expect(messages.map((message) => message.metadata ?? null)).toEqual([
      null,
      { model: "scripted-large", inputTokens: 120, outputTokens: 30 },
      null,
      { model: "scripted-large", inputTokens: 11, outputTokens: 7 },
    ]);
  });

  it("refuses a model the organization does not allow with a 400, asking nothing and storing nothing", async () => {
    const { conversation } = await newConversation(member);
    await post("/__script", { steps: [{ text: "Should not be asked." }] });
    const response = await turn(member, {
      id: conversation.id,
      model: "gpt-5-pro",
      message: { id: "m1", role: "user", parts: [{ type: "text", text: "Hi" }] },
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toContain(
      'Your organization does not allow the model "gpt-5-pro".',
    );
    expect(await received()).toEqual([]);
    expect(await loadMessages(handle.db, conversation.id)).toEqual([]);

    // A choice the organization withdrew since is refused the same way, until the user chooses again.
    const chosen = await newConversation(member);
    await chooseConversationModel(handle.db, member, chosen.conversation, null, "scripted-large");
    await setOrganizationChatModels(handle.db, owner, []);
    const withdrawn = await turn(member, {
      id: chosen.conversation.id,
      message: { id: "m1", role: "user", parts: [{ type: "text", text: "Hi" }] },
    });
    expect(withdrawn.status).toBe(400);
    const back = await turn(member, {
      id: chosen.conversation.id,
      model: "scripted-model",
      message: { id: "m1", role: "user", parts: [{ type: "text", text: "Hi" }] },
    });
    expect(back.status).toBe(200);
    await back.text();
    expect((await received()).map((request) => request.model)).toEqual(["scripted-model"]);
  });
});
