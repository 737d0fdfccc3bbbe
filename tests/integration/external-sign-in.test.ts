import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memberships, users } from "@/db/schema";
import type { UserContext } from "@/lib/auth/context";
import { userForExternalAccount } from "@/lib/auth/external-account";
import { acceptInvitation } from "@/lib/invitations/accept-invitation";
import { createInvitation } from "@/lib/invitations/invitations";
import { registerOwners } from "./org-users";
import { createTestDatabase } from "./test-db";

// An installation whose operator closed open registration: only invited people may get an account.
process.env.ALLOW_REGISTRATION = "false";

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let owner: UserContext;

beforeAll(async () => {
  handle = await createTestDatabase();
  [owner] = (await registerOwners(handle.db, "Olga")) as [UserContext];
});
afterAll(() => handle?.close());

const membershipsOf = (userId: string) =>
  handle.db.select().from(memberships).where(eq(memberships.userId, userId));

describe("signing in through GitHub or OpenID Connect", () => {
  it("matches an existing account by email, whatever the letter case", async () => {
    expect(await userForExternalAccount(handle.db, { email: "OLGA@example.com", provider: "oidc" })).toEqual({
      userId: owner.userId,
      sessionVersion: 0,
    });
  });

  it("refuses a stranger while registration is closed, and creates nothing", async () => {
    expect(
      await userForExternalAccount(handle.db, { email: "stranger@example.com", provider: "oidc" }),
    ).toBeNull();
    expect(await handle.db.select().from(users).where(eq(users.email, "stranger@example.com"))).toEqual([]);
  });

  it("lets an invited person in with no organization of their own, to join through the invitation", async () => {
    const { token } = await createInvitation(handle.db, owner, { email: "ivy@example.com", role: "admin" });
    const signedIn = await userForExternalAccount(handle.db, {
      email: "ivy@example.com",
      name: "Ivy",
      provider: "oidc",
    });
    expect(signedIn).toEqual({ userId: expect.any(String), sessionVersion: 0 });
    const userId = signedIn?.userId ?? "";
    expect(await membershipsOf(userId)).toEqual([]);
    await acceptInvitation(handle.db, { token, userId });
    expect(await membershipsOf(userId)).toEqual([
      expect.objectContaining({ organizationId: owner.orgId, role: "admin" }),
    ]);
  });
});
