import type { NextAuthConfig } from "next-auth";
import { getDb } from "@/db/client";
import { UnauthorizedError } from "@/lib/errors";
import { logger } from "@/lib/logger";
import { requireActiveUser, resolveUserContext } from "./context";
import { userForExternalAccount } from "./external-account";
import { endUserSessions } from "./user-rows";

declare module "next-auth" {
  interface Session {
    userId: string;
    orgId: string | null;
    role: string | null;
  }
  interface User {
    /** The user's session version when they proved who they are, set by every way of signing in. */
    sessionVersion?: number;
  }
}

declare module "@auth/core/jwt" {
  interface JWT {
    userId?: string;
    orgId?: string | null;
    role?: string | null;
    /** Must equal the user's current session version; tokens from before this field count as version 0. */
    sessionVersion?: number;
  }
}

/** Re-reads the organization and role for a token, so the session never claims a role the database does not grant. */
async function refreshOrganization(userId: string, preferredOrgId?: string | null) {
  try {
    const ctx = await resolveUserContext(getDb(), { userId, preferredOrgId });
    return { orgId: ctx.orgId, role: ctx.role };
  } catch {
    return { orgId: null, role: null };
  }
}

/**
 * Whether the token's session may still act: false once the user is disabled or deleted, or their sessions were
 * ended (sign-out anywhere, a new password), so every session read (pages, actions, the sign-in page's redirect)
 * sees the user's current state. A database that cannot answer does not end the session; the actions themselves
 * resolve the user from the database again.
 */
async function isCurrentSession(userId: string, sessionVersion: number): Promise<boolean> {
  try {
    await requireActiveUser(getDb(), userId, { sessionVersion });
    return true;
  } catch (error) {
    if (error instanceof UnauthorizedError) return false;
    logger.warn("could not check the session's user", { err: error });
    return true;
  }
}

type Callbacks = NonNullable<NextAuthConfig["callbacks"]>;
type Events = NonNullable<NextAuthConfig["events"]>;

/** What Auth.js asks of the app at sign-in and on every session read; kept apart from the instance so tests call it. */
export const sessionCallbacks = {
  async signIn({ user, account, profile }) {
    if (!account || account.provider === "credentials") return true;
    // An address the provider says it has not verified claims no account, neither an existing one nor a new one.
    if (String(profile?.email_verified) === "false") {
      logger.info("sign-in refused", { reason: "unverified email", provider: account.provider });
      return "/login?error=AccessDenied";
    }
    const local = await userForExternalAccount(getDb(), {
      email: profile?.email ?? user.email,
      name: profile?.name ?? user.name,
      provider: account.provider,
    });
    if (!local) return "/login?error=AccessDenied";
    user.id = local.userId;
    user.sessionVersion = local.sessionVersion;
    return true;
  },
  async jwt({ token, user, trigger, session }) {
    if (user?.id) {
      // Every way of signing in sets the version; a user without one gets no session rather than a guessed one.
      if (typeof user.sessionVersion !== "number") return null;
      token.userId = user.id;
      token.sessionVersion = user.sessionVersion;
      Object.assign(token, await refreshOrganization(user.id));
    } else if (token.userId && !(await isCurrentSession(token.userId, token.sessionVersion ?? 0))) {
      return null; // disabled, or signed out elsewhere, since this token was issued: the session ends here
    } else if (trigger === "update" && token.userId) {
      const wanted = (session as { orgId?: unknown } | undefined)?.orgId;
      Object.assign(
        token,
        await refreshOrganization(token.userId, typeof wanted === "string" ? wanted : token.orgId),
      );
    }
    return token;
  },
  session({ session, token }) {
    session.userId = token.userId ?? "";
    session.orgId = token.orgId ?? null;
    session.role = token.role ?? null;
    return session;
  },
} satisfies Callbacks;

export const sessionEvents = {
  /** Signing out ends the user's sessions on every device, so a copied cookie dies with the one signed out. */
  async signOut(message) {
    const token = "token" in message ? message.token : null;
    if (!token?.userId) return;
    await endUserSessions(getDb(), { userId: token.userId, ifVersion: token.sessionVersion ?? 0 });
  },
} satisfies Events;
