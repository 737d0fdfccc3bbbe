import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/api-keys/api-keys";
import type { UserContext } from "@/lib/auth/context";
import { getMcpClient } from "@/lib/mcp/client/shared-client";
import { createIntegration } from "@/lib/mcp/integrations/create-integration";
import { testIntegration } from "@/lib/mcp/integrations/test-connection";
import { type RunningFixture, startFixture } from "../fixtures/mcp/start-fixture";
import { connectGateway, useDatabase } from "./gateway-client";
import { registerOwners } from "./org-users";
import { createTestDatabase } from "./test-db";

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let owner: UserContext;
let suite: RunningFixture;
let client: Client;

beforeAll(async () => {
  handle = await createTestDatabase();
  useDatabase(handle);
  [owner] = (await registerOwners(handle.db, "Rae")) as [UserContext];
  // The conformance fixture completes any argument from "paris", "park" and "party".
  suite = await startFixture("conformance");
  const integration = await createIntegration(handle.db, owner, {
    source: "custom",
    name: "Suite",
    transport: "streamable-http",
    url: suite.url,
  });
  expect((await testIntegration(handle.db, owner, integration.id)).ok).toBe(true);
  client = await connectGateway((await createApiKey(handle.db, owner, { name: "completion" })).key);
});

afterAll(async () => {
  await client?.close();
  await getMcpClient().pool.closeAll();
  await suite?.stop();
  await handle?.close();
});

describe("argument completion through the gateway", () => {
  it("declares completions and completes a prompt's argument under the gateway's name for the prompt", async () => {
    expect(client.getServerCapabilities()?.completions).toBeDefined();
    const completed = await client.complete({
      ref: { type: "ref/prompt", name: "suite_test_prompt_with_arguments" },
      argument: { name: "arg1", value: "par" },
    });
    expect(completed.completion.values).toEqual(["paris", "park", "party"]);
  });

  it("completes a resource template's argument under the gateway's URI for the template", async () => {
    const completed = await client.complete({
      ref: { type: "ref/resource", uri: "switchboard://suite/test://template/{id}/data" },
      argument: { name: "id", value: "park" },
    });
    expect(completed.completion.values).toEqual(["park"]);
  });

  it("refuses a prompt or template that leads to no integration", async () => {
    await expect(
      client.complete({
        ref: { type: "ref/prompt", name: "nothing_here" },
        argument: { name: "a", value: "" },
      }),
    ).rejects.toThrow(/Prompt not found: nothing_here/);
    await expect(
      client.complete({
        ref: { type: "ref/resource", uri: "switchboard://nobody/x/{id}" },
        argument: { name: "id", value: "" },
      }),
    ).rejects.toThrow(/Resource template not found/);
  });
});
