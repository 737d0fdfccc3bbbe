import type { NextRequest } from "next/server";
import NextAuth, { CredentialsSignin } from "next-auth";
import { logger } from "@/lib/logger";
import { authProviders } from "./providers";
import { authSecret } from "./secret";
import { sessionCallbacks, sessionEvents } from "./session-callbacks";

const nextAuth = NextAuth(() => ({
  // Served by `npm start` behind whatever host the operator chose, not only on Vercel.
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
  callbacks: sessionCallbacks,
  events: sessionEvents,
}));

export const { auth, signIn, signOut, unstable_update } = nextAuth;

/**
 * A request to Auth.js's routes on the address the browser used. Without AUTH_URL, Auth.js takes the OAuth
 * redirect_uri from the Host headers when sign-in starts (a server action) but from the request URL at the
 * callback, which `npm start` makes http://localhost:<port>: the provider refuses the mismatch and the browser
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
