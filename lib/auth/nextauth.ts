import type { NextRequest } from "next/server";
import NextAuth, { CredentialsSignin } from "next-auth";
import { getDb } from "@/db/client";
import { UnauthorizedError } from "@/lib/errors";
import { logger } from "@/lib/logger";
import { requireActiveUser, resolveUserContext } from "./context";
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

/**
 * Whether the token's user may still act: false once they are disabled or deleted, so every session read (pages,
 * actions, the sign-in page's redirect) sees the user's current state. A database that cannot answer does not end
 * the session; the actions themselves resolve the user from the database again.
 */
async function isActiveUser(userId: string): Promise<boolean> {
  try {
    await requireActiveUser(getDb(), userId);
    return true;
  } catch (error) {
    if (error instanceof UnauthorizedError) return false;
    logger.warn("could not check the session's user", { err: error });
    return true;
  }
}

const nextAuth = NextAuth(() => ({
  // Served by `next start` behind whatever host the operator chose, not only on Vercel.
  trustHost: true,
  secret: authSecret(),
  session: { strategy: "jwt", maxAge: 30 * 24 * 60 * 60 },
  pages: { signIn: "/login", error: "/login" },
  providers: authProviders(),
  // Auth.js's own messages go through our structured logger; a wrong password is routine, not an error.
  logger: {
    error: (error) =>
      error instanceof CredentialsSignin
        ? logger.info("sign-in refused", {
            reason: error.code === "too_many_attempts" ? "too many attempts" : "credentials",
          })
        : logger.error("auth error", { err: error }),
    warn: (code) => logger.warn("auth warning", { code }),
    debug: () => {},
  },
  callbacks: {
    async signIn({ user, account, profile }) {
      if (!account || account.provider === "credentials") return true;
      // An address the provider says it has not verified claims no account, neither an existing one nor a new one.
      if (String(profile?.email_verified) === "false") {
        logger.info("sign-in refused", { reason: "unverified email", provider: account.provider });
        return "/login?error=AccessDenied";
      }
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
      } else if (token.userId && !(await isActiveUser(token.userId))) {
        return null; // disabled since signing in: the session ends here
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

export const { auth, signIn, signOut, unstable_update } = nextAuth;

/**
 * A request to Auth.js's routes on the address the browser used. Without AUTH_URL, Auth.js takes the OAuth
 * redirect_uri from the Host headers when sign-in starts (a server action) but from the request URL at the
 * callback, which `next start` makes http://localhost:<port>: the provider refuses the mismatch and the browser
 * is sent to localhost. Both ends now read the same headers (trustHost already trusts them).
 */
function onBrowserAddress(req: NextRequest): NextRequest {
  if (process.env.AUTH_URL ?? process.env.NEXTAUTH_URL) return req;
  const host = (req.headers.get("x-forwarded-host") ?? req.headers.get("host"))?.split(",")[0]?.trim();
  if (!host) return req;
  const proto = req.headers.get("x-forwarded-proto")?.split(",")[0]?.trim() ?? req.nextUrl.protocol;
  const url = new URL(`${req.nextUrl.pathname}${req.nextUrl.search}`, `${proto.replace(/:$/, "")}://${host}`);
  // A plain Request, which is all Auth.js reads: a NextRequest would turn 127.0.0.1 back into localhost.
  return new Request(url, req) as NextRequest;
}

export const handlers = {
  GET: (req: NextRequest) => nextAuth.handlers.GET(onBrowserAddress(req)),
  POST: (req: NextRequest) => nextAuth.handlers.POST(onBrowserAddress(req)),
};
