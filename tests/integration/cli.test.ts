import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiKeys } from "@/db/schema";
import { authenticateApiKey } from "@/lib/api-keys/api-keys";
import { authenticate } from "@/lib/auth/authenticate";
import { createCapability } from "@/lib/capabilities/store";
import { operatorContext } from "@/lib/cli/operator-context";
import { runCli } from "@/lib/cli/run";
import { createTestDatabase } from "./test-db";

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(() => handle?.close());

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, async () => ({ db: handle.db, close: async () => {} }), {
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

describe("operator CLI", () => {
  it("creates an organization and prints JSON with --json", async () => {
    const result = await cli("org:create", "acme", "--name", "Acme Inc", "--json");
    expect(result.code).toBe(0);
    expect(JSON.parse(result.out)).toMatchObject({ slug: "acme", name: "Acme Inc" });
  });

  it("creates a user who can sign in, with a role and the superadmin flag", async () => {
    const result = await cli(
      "user:create",
      "--email",
      "Ops@Example.com",
      "--password",
      "long enough",
      "--org",
      "acme",
      "--role",
      "admin",
      "--superadmin",
    );
    expect(result.code).toBe(0);
    expect(result.out).toBe("Created ops@example.com as admin of acme (superadmin).");
    expect(
      await authenticate(handle.db, { email: "ops@example.com", password: "long enough" }),
    ).toMatchObject({
      isSuperadmin: true,
    });
  });

  it("makes the first user of a new organization its owner, and later ones members, unless --role says", async () => {
    expect((await cli("org:create", "fresh")).code).toBe(0);
    const create = (email: string) =>
      cli("user:create", "--email", email, "--password", "long enough", "--org", "fresh");
    expect((await create("first@example.com")).out).toBe("Created first@example.com as owner of fresh.");
    expect((await create("second@example.com")).out).toBe("Created second@example.com as member of fresh.");
  });

  it("says clearly what is wrong, with a non-zero exit code", async () => {
    expect(await cli("org:create", "acme")).toMatchObject({
      code: 1,
      err: expect.stringMatching(/already exists/),
    });
    expect(
      await cli("user:create", "--email", "x@example.com", "--password", "long enough", "--org", "nope"),
    ).toMatchObject({
      code: 1,
      err: 'Error: The organization "nope" was not found.',
    });
    expect(await cli("user:create", "--email", "x@example.com", "--org", "acme")).toMatchObject({
      code: 2,
      err: expect.stringMatching(/--password is required/),
    });
    expect(
      await cli("user:create", "--email", "bad", "--password", "long enough", "--org", "acme", "--json"),
    ).toMatchObject({
      code: 1,
      err: JSON.stringify({ error: "Enter a valid email address, like name@example.com." }),
    });
    expect(await cli("org:create", "acme2", "--bogus")).toMatchObject({
      code: 2,
      err: expect.stringMatching(/bogus/),
    });
    expect(await cli("nope")).toMatchObject({
      code: 2,
      err: expect.stringMatching(/Unknown command "nope"/),
    });
  });
});

describe("mcp:connect", () => {
  it("connects through OAuth (the test provider consents at once), lists the tools, and never opens the database", async () => {
    const { startOAuthMcpServer } = await import("../fixtures/mcp/oauth-server");
    const server = await startOAuthMcpServer();
    try {
      let opened = false;
      const out: string[] = [];
      const code = await runCli(
        ["mcp:connect", server.url, "--json"],
        async () => {
          opened = true;
          return { db: handle.db, close: async () => {} };
        },
        { out: (line) => out.push(line), err: (line) => out.push(line) },
      );
      expect(code).toBe(0);
      expect(opened).toBe(false);
      const printed = JSON.parse(out.join("\n"));
      expect(printed).toMatchObject({ url: server.url, oauth: true });
      expect(printed.tools.map((tool: { name: string }) => tool.name).sort()).toEqual(["echo", "whoami"]);
      expect(server.stats).toMatchObject({ registrations: 1, codeGrants: 1 });
    } finally {
      await server.close();
    }
  });

  it("refuses an authorization server whose metadata or authorization response names another issuer", async () => {
    const { startOAuthMcpServer } = await import("../fixtures/mcp/oauth-server");
    const server = await startOAuthMcpServer();
    try {
      server.setIssuerAnswers({ metadataIssuer: "https://attacker.example/" });
      const metadata = await cli("mcp:connect", server.url);
      expect(metadata.code).toBe(1);
      expect(metadata.err).toMatch(
        /Authorization failed: The authorization server metadata found for http:\/\/localhost:\d+\/ names another issuer; it was not used\./,
      );
      server.setIssuerAnswers({ responseIss: "https://attacker.example/", advertiseResponseIss: true });
      const response = await cli("mcp:connect", server.url);
      expect(response.code).toBe(1);
      expect(response.err).toMatch(/The authorization response names an issuer \(iss\) other than/);
      expect(response.err).not.toContain("attacker");
      expect(server.stats).toMatchObject({ registrations: 1, codeGrants: 0 });
    } finally {
      await server.close();
    }
  });

  it("adds an OAuth integration that each user connects, to be connected in the app", async () => {
    await cli("org:create", "oauthco");
    const added = await cli(
      "integration:add",
      "--org",
      "oauthco",
      "--name",
      "Linear",
      "--url",
      "https://mcp.linear.example/mcp",
      "--oauth",
      "--each-user",
      "--scope",
      "read",
    );
    expect(added.code).toBe(0);
    expect(added.out).toMatch(/It uses OAuth: connect it on its page in the app \(Integrations → Linear\)\./);
    const mixed = await cli(
      "integration:add",
      "--org",
      "oauthco",
      "--name",
      "X",
      "--url",
      "https://x.example/mcp",
      "--oauth",
      "--token",
      "t",
    );
    expect(mixed.code).toBe(2);
    expect(mixed.err).toMatch(/--oauth takes the place of --token and --header/);
  });

  it("speaks 2026-07-28 to a server that speaks only that, and calls the tools the conformance suite names", async () => {
    const { startFixture } = await import("../fixtures/mcp/start-fixture");
    const server = await startFixture("conformance-modern");
    process.env.MCP_CONFORMANCE_CONTEXT = JSON.stringify({
      toolCalls: [
        { name: "test_simple_text", arguments: {} },
        { name: "not_listed", arguments: {} },
      ],
    });
    try {
      const connected = await cli("mcp:connect", server.url, "--json");
      expect(connected.code).toBe(0);
      const printed = JSON.parse(connected.out);
      expect(printed.tools.map((tool: { name: string }) => tool.name)).toContain("test_simple_text");
      expect(printed.called).toMatchObject([{ name: "test_simple_text", isError: false }]);
    } finally {
      delete process.env.MCP_CONFORMANCE_CONTEXT;
      await server.stop();
    }
  });

  it("calls the tool it is told to, authorizing again when the call needs more scope (step-up)", async () => {
    const { startOAuthMcpServer } = await import("../fixtures/mcp/oauth-server");
    const server = await startOAuthMcpServer({ stepUpOnCall: true });
    try {
      const called = await cli(
        "mcp:connect",
        server.url,
        "--call",
        "echo",
        "--arguments",
        '{"message":"hi"}',
      );
      expect(called.code).toBe(0);
      expect(called.out).toContain("Called echo: hi");
      // Listing took files:read; the call's 403 insufficient_scope took a second grant, for files:write too.
      expect(server.stats.codeGrants).toBe(2);
      const missing = await cli("mcp:connect", server.url, "--call", "nope");
      expect(missing.code).toBe(2);
      expect(missing.err).toContain('The server lists no tool named "nope".');
    } finally {
      await server.close();
    }
  });

  it("refuses --arguments that are not a JSON object, or without --call", async () => {
    const notObject = await cli(
      "mcp:connect",
      "http://127.0.0.1:9/mcp",
      "--call",
      "echo",
      "--arguments",
      "[1]",
    );
    expect(notObject.code).toBe(2);
    expect(notObject.err).toContain("--arguments must be a JSON object");
    const alone = await cli("mcp:connect", "http://127.0.0.1:9/mcp", "--arguments", "{}");
    expect(alone.code).toBe(2);
    expect(alone.err).toContain("--arguments needs --call <tool>.");
  });

  it("explains a bad address and a server that cannot be reached", async () => {
    const bad = await cli("mcp:connect", "ftp://example.com");
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/"ftp:\/\/example.com" is not an http:\/\/ or https:\/\/ URL/);
    const closed = await cli("mcp:connect", "http://127.0.0.1:9/mcp");
    expect(closed.code).toBe(1);
    expect(closed.err).toMatch(/^Error: Could not connect to 127\.0\.0\.1:9/);
  });
});

describe("apikey:create", () => {
  const ids = { ours: "", docs: "", theirs: "", capability: "" };
  beforeAll(async () => {
    for (const slug of ["keysco", "otherco"]) expect((await cli("org:create", slug)).code).toBe(0);
    const add = async (org: string, name: string) =>
      JSON.parse(
        (
          await cli(
            "integration:add",
            "--org",
            org,
            "--name",
            name,
            "--url",
            "http://no-such-host.invalid/mcp",
            "--json",
          )
        ).out,
      ).id as string;
    ids.ours = await add("keysco", "Ours");
    ids.docs = await add("keysco", "Docs");
    ids.theirs = await add("otherco", "Theirs");
    const ctx = await operatorContext(handle.db, "keysco");
    ids.capability = (
      await createCapability(handle.db, ctx, {
        namespace: "ours",
        action: "run",
        description: "",
        code: "return 1;",
      })
    ).id;
  });

  it("creates a key that expires and is limited to integrations (by slug or id) and capabilities (by tool name)", async () => {
    const created = await cli(
      "apikey:create",
      "--org",
      "keysco",
      "--name",
      "ci",
      "--expires-in-days",
      "30",
      "--integration",
      `ours,${ids.docs}`,
      "--capability",
      "mcp__ours__run",
      "--no-builtins",
    );
    expect(created.code).toBe(0);
    const [key, , expires, scope] = created.out.split("\n");
    expect(expires).toMatch(/^Expires in 30 days \(\d{4}-\d{2}-\d{2}T.*Z\)\.$/);
    expect(scope).toBe("May use: Integrations Ours, Docs · capability mcp__ours__run · no built-in tools.");
    const ctx = await authenticateApiKey(handle.db, `Bearer ${key}`);
    expect(ctx.toolScope).toEqual({
      builtins: [],
      integrationIds: [ids.ours, ids.docs],
      capabilityIds: [ids.capability],
    });

    const json = await cli(
      "apikey:create",
      "--org",
      "keysco",
      "--name",
      "wiki",
      "--knowledge-only",
      "--json",
    );
    expect(JSON.parse(json.out)).toMatchObject({
      name: "wiki",
      expiresAt: null,
      scope: { integrationIds: [], capabilityIds: [], builtins: true },
    });
    const plain = await cli(
      "apikey:create",
      "--org",
      "keysco",
      "--name",
      "plain",
      "--expires-at",
      "2099-01-01",
    );
    expect(plain.code).toBe(1);
    expect(plain.err).toMatch(/at most 3650 days/);
    const repeated = await cli(
      "apikey:create",
      "--org",
      "keysco",
      "--name",
      "repeated",
      "--integration",
      "ours",
      "--integration",
      "docs",
      "--no-capabilities",
    );
    expect(repeated.out.split("\n")[2]).toBe("Never expires.");
    expect(repeated.out.split("\n")[3]).toBe(
      "May use: Integrations Ours, Docs · no capabilities · built-in knowledge tools.",
    );
  });

  it("says clearly what is wrong with the expiry and scope flags", async () => {
    const create = (...flags: string[]) => cli("apikey:create", "--org", "keysco", "--name", "bad", ...flags);
    expect(await create("--expires-in-days", "soon")).toMatchObject({
      code: 2,
      err: expect.stringMatching(/--expires-in-days takes a whole number of days, like 30; got "soon"/),
    });
    expect(await create("--expires-in-days", "0")).toMatchObject({
      code: 1,
      err: "Error: A key expires at least 1 day from now.",
    });
    expect(await create("--expires-in-days", "3", "--expires-at", "2030-01-01")).toMatchObject({
      code: 2,
      err: expect.stringMatching(/not both/),
    });
    expect(await create("--expires-at", "2001-01-01")).toMatchObject({
      code: 1,
      err: "Error: Choose an expiry in the future.",
    });
    expect(await create("--knowledge-only", "--integration", "ours")).toMatchObject({
      code: 2,
      err: expect.stringMatching(/--knowledge-only cannot be combined with --integration/),
    });
    expect(await create("--integration", "ours", "--no-integrations")).toMatchObject({ code: 2 });
    expect(await create("--integration", " , ")).toMatchObject({
      code: 2,
      err: expect.stringMatching(/--integration takes an integration's id or slug/),
    });
    expect(await create("--integration", ids.theirs)).toMatchObject({
      code: 1,
      err: `Error: "${ids.theirs}" is not an integration of this organization.`,
    });
    expect(await create("--capability", "mcp__nope__run")).toMatchObject({
      code: 1,
      err: 'Error: "mcp__nope__run" is not a capability of this organization.',
    });
    const keys = await handle.db.select().from(apiKeys).where(eq(apiKeys.name, "bad"));
    expect(keys).toEqual([]);
  });
});
