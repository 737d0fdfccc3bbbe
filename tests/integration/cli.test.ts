import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authenticate } from "@/lib/auth/authenticate";
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

  it("explains a bad address and a server that cannot be reached", async () => {
    const bad = await cli("mcp:connect", "ftp://example.com");
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/"ftp:\/\/example.com" is not an http:\/\/ or https:\/\/ URL/);
    const closed = await cli("mcp:connect", "http://127.0.0.1:9/mcp");
    expect(closed.code).toBe(1);
    expect(closed.err).toMatch(/^Error: Could not connect to 127\.0\.0\.1:9/);
  });
});
