import NextAuth from "next-auth";
import { getDb } from "@/db/client";
import { logger } from "@/lib/logger";
import { resolveUserContext } from "./context";
import { userForExternalAccount } from "./external-account";
import { authProviders } from "./providers";
import { authSecret } from "./secret";

declare module "next-auth" {
  interface Session {
    userId: string;
    orgId: string | null;
    role: string | null;
  }
}

declare module "@auth/core/jwt" {
  interface JWT {
    userId?: string;
    orgId?: string | null;
    role?: string | null;
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

export const { handlers, auth, signIn, signOut, unstable_update } = NextAuth(() => ({
  // Served by `next start` behind whatever host the operator chose, not only on Vercel.
  trustHost: true,
  secret: authSecret(),
  session: { strategy: "jwt", maxAge: 30 * 24 * 60 * 60 },
  pages: { signIn: "/login", error: "/login" },
  providers: authProviders(),
  // Auth.js's own messages go through our structured logger; a wrong password is routine, not an error.
  logger: {
    error: (error) =>
      error.name === "CredentialsSignin"
        ? logger.info("sign-in refused", { reason: "credentials" })
        : logger.error("auth error", { err: error }),
    warn: (code) => logger.warn("auth warning", { code }),
    debug: () => {},
  },
  callbacks: {
    async signIn({ user, account, profile }) {
      if (!account || account.provider === "credentials") return true;
      const userId = await userForExternalAccount(getDb(), {
        email: profile?.email ?? user.email,
        name: profile?.name ?? user.name,
        provider: account.provider,
      });
      if (!userId) return "/login?error=AccessDenied";
      user.id = userId;
      return true;
    },
    async jwt({ token, user, trigger, session }) {
      if (user?.id) {
        token.userId = user.id;
        Object.assign(token, await refreshOrganization(user.id));
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
  },
}));
