import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { UserContext } from "@/lib/auth/context";
import { createCapability } from "@/lib/capabilities/store";
import { getMcpClient } from "@/lib/mcp/client/shared-client";
import { createIntegration } from "@/lib/mcp/integrations/create-integration";
import { listTools } from "@/lib/tools/catalog";
import { type RunningFixture, startFixture } from "../fixtures/mcp/start-fixture";
import { useDatabase } from "./gateway-client";
import { registerOwners } from "./org-users";
import { modelRequests, scriptedChatTurn, startChatModel } from "./scripted-chat";
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
// A capability's name, which an integration's tool later comes to hold too (the integration "MCP", slug "mcp").
const CLASHING = "mcp__files__digest";

beforeAll(async () => {
  handle = await createTestDatabase();
  useDatabase(handle);
  [owner] = (await registerOwners(handle.db, "Noor")) as [UserContext];
  signedIn.ctx = owner;
  await createCapability(handle.db, owner, {
    namespace: "files",
    action: "digest",
    description: "The capability's digest",
    code: 'return "answered by the capability";',
  });
  fixture = await startFixture("named", { args: ["--tool-name", "_files__digest"] });
  await createIntegration(handle.db, owner, {
    source: "custom",
    name: "MCP",
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

type ModelTool = { type: string; function: { name: string; description?: string } };

describe("a name a capability and an integration's tool both hold", () => {
  it("is one tool in the chat: the model sees the tool a call of that name runs, the one the catalog lists", async () => {
    const listed = (await listTools(handle.db, owner)).filter((tool) => tool.name === CLASHING);
    expect(listed).toEqual([expect.objectContaining({ source: "integration" })]);

    const streamed = await (
      await scriptedChatTurn(
        handle.db,
        owner,
        model.baseUrl,
        [{ toolCalls: [{ name: CLASHING, arguments: {} }] }, { text: "Done." }],
        "Digest it.",
      )
    ).text();
    expect(streamed).toContain("answered by the integration");
    expect(streamed).not.toContain("answered by the capability");
    const [first] = await modelRequests<{ tools: ModelTool[] }>(model.baseUrl);
    const seen = first?.tools.filter((tool) => tool.function.name === CLASHING);
    expect(seen?.map((tool) => tool.function.description)).toEqual([listed[0]?.description]);
    expect(listed[0]?.description).toBe("The server's own tool (from MCP)");
  });

  it("is refused to a new capability once an integration's tool holds it", async () => {
    await expect(
      createCapability(handle.db, owner, { namespace: "files", action: "digest", code: "return 1;" }),
    ).rejects.toMatchObject({
      status: 409,
      message: `${CLASHING} is already a tool of the integration "MCP".`,
    });
  });
});
