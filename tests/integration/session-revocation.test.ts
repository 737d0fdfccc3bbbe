import type { JWT } from "@auth/core/jwt";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { useProcessDatabase } from "@/db/client";
import { authenticate } from "@/lib/auth/authenticate";
import { changePassword } from "@/lib/auth/change-password";
import type { UserContext } from "@/lib/auth/context";
import { authProviders } from "@/lib/auth/providers";
import { sessionCallbacks, sessionEvents } from "@/lib/auth/session-callbacks";
import { setUserDisabled } from "@/lib/platform/platform-admin";
import { appErrorOf } from "./app-error";
import { registerOwners } from "./org-users";
import { createTestDatabase } from "./test-db";

// next-auth's package cannot load outside Next (it imports next/server without an extension): its error classes
// and the providers, as small as they are in the package. The callbacks and events are the app's own, unmocked.
vi.mock("next-auth", () => {
  class AuthError extends Error {}
  class CredentialsSignin extends AuthError {}
  return { AuthError, CredentialsSignin };
});
vi.mock("next-auth/providers/credentials", () => ({
  default: (options: object) => ({ id: "credentials", type: "credentials", options }),
}));
vi.mock("next-auth/providers/github", () => ({ default: () => ({ id: "github" }) }));

type JwtParams = Parameters<typeof sessionCallbacks.jwt>[0];
type SessionParams = Parameters<typeof sessionCallbacks.session>[0];
type SignInParams = Parameters<typeof sessionCallbacks.signIn>[0];

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let root: UserContext; // superadmin, who disables and enables
let ada: UserContext;

beforeAll(async () => {
  handle = await createTestDatabase();
  useProcessDatabase(handle);
  [root, ada] = (await registerOwners(handle.db, "Root", "Ada")) as [UserContext, UserContext];
});
afterAll(async () => {
  useProcessDatabase(undefined);
  await handle?.close();
});

/** What Auth.js does for a password sign-in: the credentials provider's authorize, then the jwt callback. */
async function signInWithPassword(email: string, password: string): Promise<JWT> {
  const credentials = authProviders()[0] as unknown as {
    options: { authorize: (credentials: unknown, request: Request) => Promise<JwtParams["user"] | null> };
  };
  const user = await credentials.options.authorize(
    { email, password },
    new Request("http://localhost/api/auth/callback/credentials", { method: "POST" }),
  );
  if (!user) throw new Error(`sign-in refused for ${email}`);
  return issue(user, "credentials");
}

async function issue(user: JwtParams["user"], provider: string): Promise<JWT> {
  const token = await sessionCallbacks.jwt({
    token: { sub: user.id },
    user,
    account: { provider, type: provider === "credentials" ? "credentials" : "oidc", providerAccountId: "x" },
    trigger: "signIn",
  } as JwtParams);
  if (!token) throw new Error("no token issued");
  return token;
}

/** What every request does with the cookie's token (auth() in pages and actions): the user id, or null. */
async function sessionUser(token: JWT): Promise<string | null> {
  const checked = await sessionCallbacks.jwt({ token } as JwtParams);
  if (!checked) return null;
  const session = await sessionCallbacks.session({
    session: { user: {}, expires: new Date(Date.now() + 60_000).toISOString() },
    token: checked,
  } as SessionParams);
  return session.userId || null;
}

/** Auth.js's sign-out with this token (the app's sign-out actions and its /api/auth/signout both end here). */
const signOutWith = (token: JWT) => sessionEvents.signOut({ token });

describe("ending sessions", () => {
  it("keeps a session valid from request to request until something ends it", async () => {
    const token = await signInWithPassword("ada@example.com", "password ada");
    expect(token.sessionVersion).toBe(0);
    expect(await sessionUser(token)).toBe(ada.userId);
    expect(await sessionUser(token)).toBe(ada.userId);
  });

  it("checks the session with the one user lookup it already made, no second query", async () => {
    const token = await signInWithPassword("ada@example.com", "password ada");
    const select = vi.spyOn(handle.db, "select");
    try {
      expect(await sessionUser(token)).toBe(ada.userId);
      expect(select).toHaveBeenCalledTimes(1);
    } finally {
      select.mockRestore();
    }
  });

  it("signing out ends the user's sessions on every device; signing in again works", async () => {
    const laptop = await signInWithPassword("ada@example.com", "password ada");
    const stolen = await signInWithPassword("ada@example.com", "password ada");
    await signOutWith(laptop);
    expect(await sessionUser(laptop)).toBeNull();
    expect(await sessionUser(stolen)).toBeNull();
    const again = await signInWithPassword("ada@example.com", "password ada");
    expect(await sessionUser(again)).toBe(ada.userId);
  });

  it("a token already ended cannot sign out the sessions that came after it", async () => {
    const old = await signInWithPassword("ada@example.com", "password ada");
    await signOutWith(old);
    const current = await signInWithPassword("ada@example.com", "password ada");
    await signOutWith(old);
    expect(await sessionUser(current)).toBe(ada.userId);
  });

  it("disabling a user ends their sessions, which stay ended once the user is enabled again", async () => {
    const before = await signInWithPassword("ada@example.com", "password ada");
    await setUserDisabled(handle.db, root, ada.userId, true);
    expect(await sessionUser(before)).toBeNull();
    await expect(signInWithPassword("ada@example.com", "password ada")).rejects.toThrow(/refused/);
    await setUserDisabled(handle.db, root, ada.userId, false);
    expect(await sessionUser(before)).toBeNull();
    const after = await signInWithPassword("ada@example.com", "password ada");
    expect(await sessionUser(after)).toBe(ada.userId);
  });

  it("a wrong current password changes nothing and ends no session", async () => {
    const token = await signInWithPassword("ada@example.com", "password ada");
    const error = await appErrorOf(
      changePassword(handle.db, {
        userId: ada.userId,
        currentPassword: "guess",
        newPassword: "new password",
      }),
    );
    expect(error.details?.fields).toEqual({ currentPassword: ["That is not your current password."] });
    expect(await sessionUser(token)).toBe(ada.userId);
    expect(await authenticate(handle.db, { email: "ada@example.com", password: "new password" })).toBeNull();
  });

  it("a new password set on one device ends the sessions of every device, and signs in itself", async () => {
    const phone = await signInWithPassword("ada@example.com", "password ada");
    const laptop = await signInWithPassword("ada@example.com", "password ada");
    await changePassword(handle.db, {
      userId: ada.userId,
      currentPassword: "password ada",
      newPassword: "a fresh password",
    });
    expect(await sessionUser(phone)).toBeNull();
    expect(await sessionUser(laptop)).toBeNull();
    await expect(signInWithPassword("ada@example.com", "password ada")).rejects.toThrow(/refused/);
    const again = await signInWithPassword("ada@example.com", "a fresh password");
    expect(await sessionUser(again)).toBe(ada.userId);
  });

  it("single sign-on puts the version in its token too, and sign-out elsewhere ends that session", async () => {
    const user = { email: "root@example.com", name: "Root" } as SignInParams["user"];
    const allowed = await sessionCallbacks.signIn({
      user,
      account: { provider: "oidc", type: "oidc", providerAccountId: "sub-1" },
      profile: { email: "root@example.com", email_verified: true },
    } as SignInParams);
    expect(allowed).toBe(true);
    const sso = await issue(user, "oidc");
    expect(sso.userId).toBe(root.userId);
    expect(await sessionUser(sso)).toBe(root.userId);
    await signOutWith(await signInWithPassword("root@example.com", "password root"));
    expect(await sessionUser(sso)).toBeNull();
  });

  it("a sign-in that carries no session version gets no session", async () => {
    const token = await sessionCallbacks.jwt({
      token: {},
      user: { id: ada.userId },
      account: { provider: "credentials", type: "credentials", providerAccountId: ada.userId },
      trigger: "signIn",
    } as JwtParams);
    expect(token).toBeNull();
  });
});
