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
