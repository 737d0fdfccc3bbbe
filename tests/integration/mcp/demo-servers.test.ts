import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpIntegrations } from "@/db/schema";
import { resolveUserContext, type UserContext } from "@/lib/auth/context";
import { registerUser } from "@/lib/auth/users";
import { runCli } from "@/lib/cli/run";
import { ValidationError } from "@/lib/errors";
import { createIntegration } from "@/lib/mcp/integrations/create-integration";
import { listIntegrations } from "@/lib/mcp/integrations/list-integrations";
import { offeredPresets } from "@/lib/mcp/presets";
import { createTestDatabase } from "../test-db";

// An installation whose operator did not turn on demo servers (as in production): the "Everything" reference
// server, which fetches any URL from this host, is not offered. Set before anything reads the environment.
process.env.MCP_DEMO_SERVERS = "false";

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let owner: UserContext;

beforeAll(async () => {
  handle = await createTestDatabase();
  const user = await registerUser(handle.db, { name: "D", email: "d@example.com", password: "password d" });
  owner = await resolveUserContext(handle.db, { userId: user.user.id });
});
afterAll(() => handle?.close());

describe("demo servers turned off", () => {
  it("leaves the Everything reference server out of the catalog, and keeps the others", () => {
    const keys = offeredPresets().map((entry) => entry.key);
    expect(keys).not.toContain("everything");
    expect(keys).toEqual(expect.arrayContaining(["memory", "github"]));
  });

  it("refuses to add it, saying why and which setting offers it", async () => {
    const error = await createIntegration(handle.db, owner, {
      source: "catalog",
      presetKey: "everything",
      credentials: {},
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).message).toMatch(/demo.*fetch any URL.*MCP_DEMO_SERVERS=true/);
    expect(await listIntegrations(handle.db, owner)).toEqual([]);
  });

  it("refuses it in the operator CLI too", async () => {
    const out: string[] = [];
    const err: string[] = [];
    const run = (argv: string[]) =>
      runCli(argv, async () => ({ db: handle.db, close: async () => {} }), {
        out: (line) => out.push(line),
        err: (line) => err.push(line),
      });
    expect(await run(["org:create", "demo-off"])).toBe(0);
    const code = await run([
      "integration:add",
      "--org",
      "demo-off",
      "--name",
      "E",
      "--catalog",
      "everything",
    ]);
    expect(code).not.toBe(0);
    expect(err.join("\n")).toMatch(/MCP_DEMO_SERVERS=true/);
  });

  it("keeps an Everything integration added before listed", async () => {
    await handle.db.insert(mcpIntegrations).values({
      organizationId: owner.orgId,
      name: "Everything",
      slug: "everything",
      transport: "stdio",
      authType: "none",
      presetKey: "everything",
      timeoutMs: 30_000,
    });
    expect((await listIntegrations(handle.db, owner)).map((integration) => integration.presetKey)).toEqual([
      "everything",
    ]);
  });
});
