import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createOrganizationAction } from "@/app/(app)/actions";
import { useProcessDatabase } from "@/db/client";
import { memberships, organizations } from "@/db/schema";
import type { UserContext } from "@/lib/auth/context";
import { AppError } from "@/lib/errors";
import { createOrganization } from "@/lib/orgs/organizations";
import { setUserDisabled } from "@/lib/platform/platform-admin";
import { registerOwners } from "./org-users";
import { createTestDatabase } from "./test-db";

// The session cookie still names the user after they are disabled: stand in for next-auth with such a session,
// and for Next's runtime (cache, redirect). Everything else the action does is real.
const session = vi.hoisted(() => ({ userId: "" }));
vi.mock("@/lib/auth/nextauth", () => ({
  auth: async () => (session.userId ? { userId: session.userId, orgId: null, role: null } : null),
  unstable_update: async () => {},
  signOutTo: async () => {},
}));
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));
vi.mock("next/navigation", () => ({
  redirect: (url: string) => {
    throw Object.assign(new Error("NEXT_REDIRECT"), { url });
  },
}));

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let admin: UserContext;
let disabled: UserContext;
let enabled: UserContext;

beforeAll(async () => {
  handle = await createTestDatabase();
  useProcessDatabase(handle);
  // The first user registered is the superadmin, who can disable others.
  [admin, disabled, enabled] = (await registerOwners(handle.db, "Root", "Mallory", "Ada")) as [
    UserContext,
    UserContext,
    UserContext,
  ];
  await setUserDisabled(handle.db, admin, disabled.userId, true);
});
afterAll(async () => {
  useProcessDatabase(undefined);
  await handle?.close();
});

const organizationCount = async () =>
  (await handle.db.select({ value: count() }).from(organizations))[0]?.value ?? 0;
const ownedBy = async (userId: string) =>
  (await handle.db.select().from(memberships).where(eq(memberships.userId, userId))).length;

function form(name: string) {
  const data = new FormData();
  data.set("name", name);
  return data;
}

describe("a disabled user's session", () => {
  it("cannot create an organization through the domain function", async () => {
    const before = await organizationCount();
    const error = await createOrganization(handle.db, { ownerId: disabled.userId, name: "Shadow" }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("unauthorized:auth");
    expect(await organizationCount()).toBe(before);
    expect(await ownedBy(disabled.userId)).toBe(1);
  });

  it("cannot create an organization through the server action", async () => {
    session.userId = disabled.userId;
    const before = await organizationCount();
    const result = await createOrganizationAction({}, form("Shadow"));
    expect(result.error).toMatch(/session has ended/i);
    expect(await organizationCount()).toBe(before);
    expect(await ownedBy(disabled.userId)).toBe(1);
  });

  it("still lets an enabled user create one", async () => {
    session.userId = enabled.userId;
    const error = await createOrganizationAction({}, form("Second")).catch((e: unknown) => e);
    expect((error as { url?: string }).url).toMatch(/^\/\?created=/);
    expect(await ownedBy(enabled.userId)).toBe(2);
  });

  it("works again once the user is enabled again", async () => {
    await setUserDisabled(handle.db, admin, disabled.userId, false);
    const org = await createOrganization(handle.db, { ownerId: disabled.userId, name: "Back" });
    expect(org.name).toBe("Back");
    expect(await ownedBy(disabled.userId)).toBe(2);
  });
});
