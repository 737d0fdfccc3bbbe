import { expect } from "vitest";
import type { DatabaseHandle } from "@/db/client";
import type { UserContext } from "@/lib/auth/context";
import { getMcpClient } from "@/lib/mcp/client/shared-client";
import { createIntegration } from "@/lib/mcp/integrations/create-integration";
import { testIntegration } from "@/lib/mcp/integrations/test-connection";
import { type RunningFixture, startFixture } from "../../fixtures/mcp/start-fixture";
import { useDatabase as setRouteDatabase } from "../gateway-client";
import { registerOwners } from "../org-users";
import { createTestDatabase } from "../test-db";

export interface OAuthTestApp {
  handle: DatabaseHandle & { db: DatabaseHandle["db"] };
  /** The first account (a superadmin) and the owner of its organization. */
  ada: UserContext;
  close(): Promise<void>;
}

/**
 * The app's routes on a test database of their own, with Ada owning an organization; with `echo`, it has the Echo
 * server as an integration (slug "echo", tools echo_echo through the gateway).
 */
export async function openOAuthTestApp({ echo = false } = {}): Promise<OAuthTestApp> {
  const handle = await createTestDatabase();
  setRouteDatabase(handle);
  const [ada] = (await registerOwners(handle.db, "Ada")) as [UserContext];
  let server: RunningFixture | undefined;
  if (echo) {
    server = await startFixture("echo");
    const integration = await createIntegration(handle.db, ada, {
      source: "custom",
      name: "Echo",
      transport: "streamable-http",
      url: server.url,
    });
    expect((await testIntegration(handle.db, ada, integration.id)).ok).toBe(true);
  }
  return {
    handle,
    ada,
    async close() {
      await getMcpClient().pool.closeAll();
      await server?.stop();
      setRouteDatabase(undefined);
      await handle.close();
    },
  };
}
