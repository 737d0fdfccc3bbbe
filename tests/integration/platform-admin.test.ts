import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authenticate } from "@/lib/auth/authenticate";
import { resolveUserContext, type UserContext } from "@/lib/auth/context";
import type { AppError } from "@/lib/errors";
import { listOrganizationsOverview, searchUsers, setUserDisabled } from "@/lib/platform/platform-admin";
import { registerOwners } from "./org-users";
import { createTestDatabase } from "./test-db";

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let root: UserContext;
let other: UserContext;

beforeAll(async () => {
  handle = await createTestDatabase();
  // The first account is the superadmin.
  [root, other] = (await registerOwners(handle.db, "Root", "Olive")) as [UserContext, UserContext];
}, 60_000);
afterAll(() => handle?.close());

const status = (promise: Promise<unknown>) =>
  promise.then(
    () => 200,
    (error: AppError) => error.status,
  );

describe("superadmin pages", () => {
  it("lists every organization and finds users with their memberships", async () => {
    expect((await listOrganizationsOverview(handle.db, root)).map((o) => o.members)).toEqual([1, 1]);
    const found = await searchUsers(handle.db, root, "oliv");
    expect(found).toEqual([
      expect.objectContaining({
        email: "olive@example.com",
        memberships: [expect.objectContaining({ role: "owner" })],
      }),
    ]);
    expect(await searchUsers(handle.db, root, "%")).toEqual([]);
    expect((await searchUsers(handle.db, root, "")).length).toBe(2);
  });

  it("disables a user, who loses access at once, and enables them again", async () => {
    await setUserDisabled(handle.db, root, other.userId, true);
    expect(await status(resolveUserContext(handle.db, { userId: other.userId }))).toBe(401);
    expect(
      await authenticate(handle.db, { email: "olive@example.com", password: "password olive" }),
    ).toBeNull();
    await setUserDisabled(handle.db, root, other.userId, false);
    expect((await resolveUserContext(handle.db, { userId: other.userId })).orgId).toBe(other.orgId);
    expect(await status(setUserDisabled(handle.db, root, root.userId, true))).toBe(400);
  });

  it("is for superadmins only", async () => {
    expect(await status(searchUsers(handle.db, other, ""))).toBe(403);
    expect(await status(listOrganizationsOverview(handle.db, other))).toBe(403);
    expect(await status(setUserDisabled(handle.db, other, root.userId, true))).toBe(403);
  });
});
