import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { POST as uploadRoute } from "@/app/api/chat/[id]/files/route";
import { auditEvents } from "@/db/schema";
import type { UserContext } from "@/lib/auth/context";
import { conversationModels, setOrganizationChatModels } from "@/lib/chat/chat-models";
import {
  modelTakesImages,
  organizationTextOnlyModels,
  setOrganizationTextOnlyModels,
} from "@/lib/chat/text-only-models";
import { tinyPng } from "../fixtures/files/sample-files";
import { appErrorOf } from "./app-error";
import { useDatabase } from "./gateway-client";
import { registerOwnerMemberAndOther } from "./org-users";
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
let member: UserContext;
let other: UserContext;

beforeAll(async () => {
  handle = await createTestDatabase();
  useDatabase(handle);
  ({ owner, member, other } = await registerOwnerMemberAndOther(handle.db));
  await setOrganizationChatModels(handle.db, owner, ["local-llama"]);
}, 60_000);
afterAll(async () => {
  useDatabase(undefined);
  await model.stop();
  await handle?.close();
});

const newConversation = (ctx: UserContext) => newChat(handle.db, ctx);

async function uploadImage(ctx: UserContext, id: string) {
  signedIn.ctx = ctx;
  const response = await uploadRoute(
    new Request(`http://localhost/api/chat/${id}/files?name=dot.png`, {
      method: "POST",
      headers: { "content-type": "application/octet-stream" },
      body: new Uint8Array(tinyPng),
    }),
    { params: Promise.resolve({ id }) },
  );
  expect(response.status).toBe(201);
  return ((await response.json()) as { fileId: string }).fileId;
}

async function askAboutImage(ctx: UserContext, id: string, fileId: string, chosen: string) {
  await scriptAnswers(model.baseUrl, [{ text: "Noted." }]);
  signedIn.ctx = ctx;
  const response = await postChatTurn({
    id,
    model: chosen,
    message: {
      id: crypto.randomUUID(),
      role: "user",
      parts: [
        { type: "text", text: "What is this?" },
        { type: "data-file", data: { fileId } },
      ],
    },
  });
  expect(response.status).toBe(200);
  await response.text();
  const requests = await modelRequests<{
    model: string;
    messages: { role: string; content: string | { type: string; text?: string; image_url?: unknown }[] }[];
  }>(model.baseUrl);
  const sent = requests.at(-1);
  // Each user message of the history, as the model received it; the last is this turn's.
  const users = (sent?.messages ?? [])
    .filter((m) => m.role === "user")
    .map((m) => (Array.isArray(m.content) ? m.content : []));
  return { model: sent?.model, users, raw: JSON.stringify(sent) };
}

describe("models marked text only", () => {
  it("are set by owners and admins only, checked, kept per organization and audited", async () => {
    expect(await organizationTextOnlyModels(handle.db, owner)).toEqual([]);
    expect(await setOrganizationTextOnlyModels(handle.db, owner, [" local-llama ", "local-llama"])).toEqual([
      "local-llama",
    ]);
    expect((await appErrorOf(setOrganizationTextOnlyModels(handle.db, member, ["x"]))).status).toBe(403);
    const bad = await appErrorOf(setOrganizationTextOnlyModels(handle.db, owner, ["no spaces please"]));
    expect(bad.status).toBe(400);
    expect(bad.message).toContain("A model name holds letters, digits");
    expect(await organizationTextOnlyModels(handle.db, owner)).toEqual(["local-llama"]);
    expect(await organizationTextOnlyModels(handle.db, other)).toEqual([]);
    expect(await modelTakesImages(handle.db, owner, "local-llama")).toBe(false);
    expect(await modelTakesImages(handle.db, owner, "scripted-model")).toBe(true);
    expect(await modelTakesImages(handle.db, other, "local-llama")).toBe(true);
    const audited = await handle.db
      .select()
      .from(auditEvents)
      .where(
        and(eq(auditEvents.organizationId, owner.orgId), eq(auditEvents.targetName, "Text-only chat models")),
      );
    expect(audited.map((event) => [event.action, event.before, event.after])).toEqual([
      ["settings.update", { textOnlyModels: [] }, { textOnlyModels: ["local-llama"] }],
    ]);
  });

  it("are named to the conversation's header, so the composer can warn before an image is sent", async () => {
    const { agent, conversation } = await newConversation(member);
    expect(await conversationModels(handle.db, member, conversation, agent.model)).toEqual({
      agentDefault: "scripted-model",
      models: ["scripted-model", "local-llama"],
      chosen: "scripted-model",
      textOnly: ["local-llama"],
    });
  });

  it("receive an attached image as a note naming it, never its bytes, in this message and earlier ones", async () => {
    const { conversation } = await newConversation(member);
    // Sent first to a model that takes images: it gets the image part.
    const seen = await askAboutImage(
      member,
      conversation.id,
      await uploadImage(member, conversation.id),
      "scripted-model",
    );
    expect(seen.model).toBe("scripted-model");
    expect(seen.users.map((content) => content.map((part) => part.type))).toEqual([["text", "image_url"]]);
    expect(seen.raw).toContain(tinyPng.toString("base64"));
    // The conversation switches to the text-only model: neither the new image nor the earlier one is sent.
    const fileId = await uploadImage(member, conversation.id);
    const sent = await askAboutImage(member, conversation.id, fileId, "local-llama");
    expect(sent.model).toBe("local-llama");
    const note =
      'An image named "dot.png" was attached, but this model (local-llama) cannot see images, so it was not sent.';
    const asked = [
      { type: "text", text: "What is this?" },
      { type: "text", text: note },
    ];
    expect(sent.users).toEqual([asked, asked]);
    expect(sent.raw).not.toContain(tinyPng.toString("base64"));
    expect(sent.raw).not.toContain("image_url");
  });
});
