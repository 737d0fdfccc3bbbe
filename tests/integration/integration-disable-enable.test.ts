import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listAuditEvents } from "@/lib/audit/list-audit";
import type { UserContext } from "@/lib/auth/context";
import { getMcpClient } from "@/lib/mcp/client/shared-client";
import { McpCallInterruptedError } from "@/lib/mcp/errors";
import { getIntegration } from "@/lib/mcp/integrations/get-integration";
import { setIntegrationEnabled } from "@/lib/mcp/integrations/set-integration-enabled";
import { mcpUseCases } from "@/lib/mcp/use-cases";
import { invokeTool } from "@/lib/tools/catalog";
import { rangeOf } from "@/lib/usage/dashboard";
import { type RunningFaultServer, startFaultServer } from "../fixtures/mcp/start-fixture";
import { registerOwners } from "./org-users";
import { createTestDatabase } from "./test-db";
import { addTestedIntegration } from "./tested-integration";

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let a: UserContext;
let fault: RunningFaultServer;
let integrationId: string;

beforeAll(async () => {
  handle = await createTestDatabase();
  [a] = (await registerOwners(handle.db, "Dina")) as [UserContext];
  fault = await startFaultServer();
  integrationId = await addTestedIntegration(handle.db, a, { name: "Slow", url: fault.url });
}, 60_000);

afterAll(async () => {
  await getMcpClient().pool.closeAll();
  await fault?.stop();
  await handle?.close();
});

describe("disabling an integration while it is being discovered, then enabling it", () => {
  it("leaves it as healthy as it was: the interrupted discovery is not taken for a failure", async () => {
    await fault.fault({ kind: "slow", ms: 1500 });
    const discovery = mcpUseCases(handle.db)
      .discover(a, { integrationId })
      .catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await setIntegrationEnabled(handle.db, a, integrationId, false);
    await setIntegrationEnabled(handle.db, a, integrationId, true);
    await fault.fault({ kind: "none" });

    const interrupted = await discovery;
    expect(interrupted).toBeInstanceOf(McpCallInterruptedError);
    expect((interrupted as Error).message).toBe(
      "The call was interrupted: the integration was changed, disabled or deleted while it ran",
    );
    const view = await getIntegration(handle.db, a, integrationId);
    expect(view).toMatchObject({ enabled: true, status: "connected", lastError: null });
    expect(view.state?.state).not.toBe("failing");

    // Each change is audited once.
    const audit = await listAuditEvents(handle.db, a.orgId, {
      range: rangeOf("24h").range,
      kind: "integration",
    });
    expect(audit.map((entry) => entry.action).filter((action) => action !== "integration.create")).toEqual([
      "integration.enable",
      "integration.disable",
    ]);
    // And its tools answer at once.
    const echo = await invokeTool(handle.db, a, "slow_echo", { message: "back" }, { surface: "rest" });
    expect(echo).toMatchObject({ isError: false, content: [{ type: "text", text: "Echo: back" }] });
  });
});
