import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memberships, organizations, users } from "@/db/schema";
import { authenticate } from "@/lib/auth/authenticate";
import { type RequestContext, resolveUserContext } from "@/lib/auth/context";
import { registerUser } from "@/lib/auth/users";
import { AppError } from "@/lib/errors";
import { createInvitation } from "@/lib/invitations/invitations";
import { changeMemberRole, listMembers, removeMember } from "@/lib/orgs/members";
import { listOrganizationsForUser } from "@/lib/orgs/memberships";
import { createOrganization, switchOrganization } from "@/lib/orgs/organizations";
import { joinByInvitation } from "./org-users";
import { createTestDatabase } from "./test-db";

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(() => handle?.close());

const db = () => handle.db;
let n = 0;
const register = (overrides: Record<string, unknown> = {}) =>
  registerUser(db(), {
    name: "Ada",
    email: `ada${++n}@example.com`,
    password: "correct horse",
    ...overrides,
  });
const contextOf = (userId: string, preferredOrgId?: string) =>
  resolveUserContext(db(), { userId, preferredOrgId });

async function expectAppError(promise: Promise<unknown>, code: string, message?: RegExp) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe(code);
  if (message) expect((error as AppError).message).toMatch(message);
  return error as AppError;
}

describe("registration", () => {
  it("creates the user, their organization and an owner membership; the first user is superadmin", async () => {
    const { user, organization } = await register({ name: "Grace", organizationName: "Hopper Labs" });
    expect(user.isSuperadmin).toBe(true);
    expect(organization).toMatchObject({ name: "Hopper Labs", slug: "hopper-labs" });
    const ctx = await contextOf(user.id);
    expect(ctx).toMatchObject({ orgId: organization.id, role: "owner", isSuperadmin: true });

    const second = await register();
    expect(second.user.isSuperadmin).toBe(false);
    expect(second.organization.name).toBe("Ada's organization");
  });

  it("derives a free slug when the name is taken", async () => {
    const a = await register({ organizationName: "Acme" });
    const b = await register({ organizationName: "Acme" });
    expect(a.organization.slug).toBe("acme");
    expect(b.organization.slug).toBe("acme-2");
  });

  it("refuses an email that exists, in any letter case, and writes nothing", async () => {
    await register({ email: "dup@example.com" });
    const before = await db().select({ value: count() }).from(organizations);
    const error = await expectAppError(
      register({ email: "DUP@example.com" }),
      "conflict:resource",
      /already exists/,
    );
    expect(error.details?.fields?.email).toBeDefined();
    const after = await db().select({ value: count() }).from(organizations);
    expect(after).toEqual(before);
  });

  it("explains a malformed email and a short password per field", async () => {
    const bad = await expectAppError(
      register({ email: "not-an-email" }),
      "bad_request:validation",
      /valid email/,
    );
    expect(Object.keys(bad.details?.fields ?? {})).toEqual(["email"]);
    const short = await expectAppError(
      register({ password: "short" }),
      "bad_request:validation",
      /at least 8/,
    );
    expect(Object.keys(short.details?.fields ?? {})).toEqual(["password"]);
  });

  it("authenticates with the right password only", async () => {
    const { user } = await register({ email: "login@example.com" });
    expect(await authenticate(db(), { email: "LOGIN@example.com", password: "correct horse" })).toMatchObject(
      {
        id: user.id,
      },
    );
    expect(await authenticate(db(), { email: "login@example.com", password: "wrong horse" })).toBeNull();
    expect(await authenticate(db(), { email: "nobody@example.com", password: "correct horse" })).toBeNull();
    expect(await authenticate(db(), { email: 42 })).toBeNull();
  });

  it("stores a password hash, never the password", async () => {
    const { user } = await register({ email: "hash@example.com", password: "a secret passphrase" });
    const [row] = await db().select().from(users).where(eq(users.id, user.id));
    expect(row?.passwordHash).toMatch(/^\$2[aby]\$/);
    expect(row?.passwordHash).not.toContain("a secret passphrase");
  });
});

describe("organizations and switching", () => {
  it("lists the user's organizations and switches only to their own", async () => {
    const { user, organization } = await register();
    const second = await createOrganization(db(), { ownerId: user.id, name: "Second" });
    expect((await listOrganizationsForUser(db(), user.id)).map((o) => o.id)).toEqual([
      organization.id,
      second.id,
    ]);
    // Creating an organization makes it active.
    expect((await contextOf(user.id)).orgId).toBe(second.id);
    await switchOrganization(db(), { userId: user.id, orgId: organization.id });
    expect((await contextOf(user.id)).orgId).toBe(organization.id);

    const stranger = await register();
    await expectAppError(
      switchOrganization(db(), { userId: user.id, orgId: stranger.organization.id }),
      "not_found:resource",
    );
    // A preferred organization the user does not belong to is ignored.
    expect((await contextOf(user.id, stranger.organization.id)).orgId).toBe(organization.id);
  });

  it("refuses a taken slug", async () => {
    await createOrganization(db(), { name: "Taken", slug: "taken-slug" });
    await expectAppError(
      createOrganization(db(), { name: "Other", slug: "taken-slug" }),
      "conflict:resource",
    );
    await expectAppError(
      createOrganization(db(), { name: "Bad", slug: "Not A Slug!" }),
      "bad_request:validation",
    );
  });
});

describe("members and roles", () => {
  async function orgWithMember() {
    const owner = await register();
    const member = await register();
    const ownerCtx = await contextOf(owner.user.id);
    await joinByInvitation(db(), ownerCtx, { email: member.user.email, role: "member" });
    const memberCtx = await contextOf(member.user.id, owner.organization.id);
    return { owner, member, ownerCtx, memberCtx };
  }

  it("adds a member who accepted an invitation, who can then act in the organization as a member", async () => {
    const { ownerCtx, memberCtx, member } = await orgWithMember();
    expect(memberCtx).toMatchObject({ orgId: ownerCtx.orgId, role: "member" });
    const list = await listMembers(db(), ownerCtx);
    expect(list.map((m) => [m.email, m.role])).toContainEqual([member.user.email, "member"]);
  });

  it("refuses to invite a member again, or with a bad role", async () => {
    const { ownerCtx, member } = await orgWithMember();
    await expectAppError(
      createInvitation(db(), ownerCtx, { email: member.user.email, role: "admin" }),
      "conflict:resource",
      /already a member/,
    );
    await expectAppError(
      createInvitation(db(), ownerCtx, { email: "someone@example.com", role: "king" }),
      "bad_request:validation",
      /role/,
    );
  });

  it("lets no member invite, re-role or remove anyone", async () => {
    const { owner, memberCtx, member } = await orgWithMember();
    const other = await register();
    await expectAppError(
      createInvitation(db(), memberCtx, { email: other.user.email, role: "member" }),
      "forbidden:auth",
    );
    await expectAppError(
      changeMemberRole(db(), memberCtx, { userId: member.user.id, role: "admin" }),
      "forbidden:auth",
    );
    await expectAppError(removeMember(db(), memberCtx, { userId: owner.user.id }), "forbidden:auth");
  });

  it("lets admins manage members but not owners", async () => {
    const { owner, ownerCtx, member } = await orgWithMember();
    await changeMemberRole(db(), ownerCtx, { userId: member.user.id, role: "admin" });
    const adminCtx = await contextOf(member.user.id, ownerCtx.orgId);
    expect(adminCtx.role).toBe("admin");
    const newcomer = await register();
    await joinByInvitation(db(), adminCtx, { email: newcomer.user.email, role: "member" });
    await expectAppError(
      createInvitation(db(), adminCtx, { email: (await register()).user.email, role: "owner" }),
      "forbidden:auth",
    );
    await expectAppError(removeMember(db(), adminCtx, { userId: owner.user.id }), "forbidden:auth");
    await removeMember(db(), adminCtx, { userId: newcomer.user.id });
    expect((await listMembers(db(), ownerCtx)).map((m) => m.userId)).not.toContain(newcomer.user.id);
  });

  it("never removes or demotes the last owner, and allows it once there is another", async () => {
    const { owner, ownerCtx, member } = await orgWithMember();
    await expectAppError(
      removeMember(db(), ownerCtx, { userId: owner.user.id }),
      "conflict:resource",
      /last owner/,
    );
    await expectAppError(
      changeMemberRole(db(), ownerCtx, { userId: owner.user.id, role: "admin" }),
      "conflict:resource",
      /last owner/,
    );
    await changeMemberRole(db(), ownerCtx, { userId: member.user.id, role: "owner" });
    await changeMemberRole(db(), ownerCtx, { userId: owner.user.id, role: "member" });
    const roles = await db()
      .select({ role: memberships.role })
      .from(memberships)
      .where(eq(memberships.organizationId, ownerCtx.orgId));
    expect(roles.map((r) => r.role).sort()).toEqual(["member", "owner"]);
  });

  it("drops a removed member's access at once", async () => {
    const { ownerCtx, member, memberCtx } = await orgWithMember();
    await removeMember(db(), ownerCtx, { userId: member.user.id });
    const after = await contextOf(member.user.id, memberCtx.orgId);
    expect(after.orgId).toBe(member.organization.id);
  });

  it("scopes every member operation to the context's organization", async () => {
    const a = await orgWithMember();
    const b = await orgWithMember();
    const foreign: RequestContext = b.ownerCtx;
    await expectAppError(removeMember(db(), foreign, { userId: a.member.user.id }), "not_found:resource");
    await expectAppError(
      changeMemberRole(db(), foreign, { userId: a.member.user.id, role: "admin" }),
      "not_found:resource",
    );
    expect((await listMembers(db(), foreign)).map((m) => m.userId)).not.toContain(a.member.user.id);
  });
});
