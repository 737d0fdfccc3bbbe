import { expect } from "vitest";
import type { Database } from "@/db/client";
import type { UserContext } from "@/lib/auth/context";
import { createIntegration } from "@/lib/mcp/integrations/create-integration";
import { testIntegration } from "@/lib/mcp/integrations/test-connection";

/** Adds a Streamable HTTP server as a custom integration and tests it, as an admin does; its id. */
export async function addTestedIntegration(
  db: Database,
  ctx: UserContext,
  server: { name: string; url: string; timeoutMs?: number },
): Promise<string> {
  const integration = await createIntegration(db, ctx, {
    source: "custom",
    transport: "streamable-http",
    ...server,
  });
  expect((await testIntegration(db, ctx, integration.id)).ok).toBe(true);
  return integration.id;
}
