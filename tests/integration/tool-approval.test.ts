import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { UserContext } from "@/lib/auth/context";
import { createAgent, ensureDefaultAgent, updateAgent } from "@/lib/chat/agents";
import { createConversation } from "@/lib/chat/conversations";
import { prepareConversation } from "@/lib/chat/prepare-conversation";
import type { ToolApprovalPolicy } from "@/lib/chat/tool-approval-schema";
import { getMcpClient } from "@/lib/mcp/client/shared-client";
import { type RunningFixture, startFixture } from "../fixtures/mcp/start-fixture";
import { appErrorOf } from "./app-error";
import { registerOwners } from "./org-users";
import { createTestDatabase } from "./test-db";
import { addTestedIntegration } from "./tested-integration";

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let weather: RunningFixture;
let owner: UserContext;
let integrationId = "";

beforeAll(async () => {
  handle = await createTestDatabase();
  [owner] = (await registerOwners(handle.db, "Pia")) as [UserContext];
  weather = await startFixture("structured");
  integrationId = await addTestedIntegration(handle.db, owner, { name: "Weather", url: weather.url });
}, 60_000);
afterAll(async () => {
  await getMcpClient().pool.closeAll();
  await weather?.stop();
  await handle?.close();
});

// forecast says it is read-only, clear_history that it is destructive, note says nothing of itself.
const TOOLS = ["weather_forecast", "weather_clear_history", "weather_note", "knowledge_search"];

/** Which of the agent's tools wait for the user before they run, in a new conversation with it. */
async function asking(toolApproval?: ToolApprovalPolicy) {
  const agent = await createAgent(handle.db, owner, {
    name: `Agent ${toolApproval ?? "by default"}`,
    mcpIntegrationIds: [integrationId],
    capabilityIds: [],
    builtinTools: ["knowledge_search"],
    ...(toolApproval ? { toolApproval } : {}),
  });
  const conversation = await createConversation(handle.db, owner, agent.id);
  const { active } = await prepareConversation(handle.db, owner, conversation);
  expect(Object.keys(active.tools).sort()).toEqual([...TOOLS].sort());
  return {
    agent,
    asks: TOOLS.filter((name) => active.tools[name]?.needsApproval === true),
  };
}

describe("an agent's approval policy, by the tools' annotations", () => {
  it("under risky, runs read-only tools at once and asks before destructive and unannotated ones", async () => {
    expect((await asking("risky")).asks).toEqual(["weather_clear_history", "weather_note"]);
  });

  it("asks before every tool under always, and before none under never", async () => {
    expect((await asking("always")).asks).toEqual(TOOLS);
    expect((await asking("never")).asks).toEqual([]);
  });

  it("makes new agents ask before risky tools, keeps the default agent running tools as before", async () => {
    const { agent, asks } = await asking();
    expect(agent.toolApproval).toBe("risky");
    expect(asks).toEqual(["weather_clear_history", "weather_note"]);
    expect((await ensureDefaultAgent(handle.db, owner.orgId)).toolApproval).toBe("never");
  });

  it("refuses a policy it does not know, with the field's message, and keeps the agent as it was", async () => {
    const { agent } = await asking("always");
    const refused = await appErrorOf(
      updateAgent(handle.db, owner, agent.id, { name: agent.name, toolApproval: "sometimes" }),
    );
    expect(refused.status).toBe(400);
    expect(refused.message).toContain("Choose when the agent asks before running tools.");
    const conversation = await createConversation(handle.db, owner, agent.id);
    expect((await prepareConversation(handle.db, owner, conversation)).agent.toolApproval).toBe("always");
  });
});
