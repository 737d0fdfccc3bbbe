import { redirect } from "next/navigation";
import type { NextRequest } from "next/server";
import NextAuth, { CredentialsSignin } from "next-auth";
import { trustedOrigin } from "@/lib/http/app-origin";
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

export const { auth, unstable_update } = nextAuth;

/**
 * Signs in with an email and password, then goes to `path` on this site. The redirect is made here, to a path:
 * Auth.js's own is an absolute URL on whatever Host the request named. Throws Auth.js's AuthError when refused.
 */
export async function signInWithPassword(
  credentials: { email: string; password: string },
  path: string,
): Promise<never> {
  await nextAuth.signIn("credentials", { ...credentials, redirect: false });
  redirect(path);
}

/** Ends the session, then goes to `path` on this site (a path, as signInWithPassword's). */
export async function signOutTo(path: string): Promise<never> {
  await nextAuth.signOut({ redirect: false });
  redirect(path);
}

/**
 * A request to Auth.js's routes on the app's trusted origin (trustedOrigin: AUTH_URL, a declared proxy's forwarded
 * host, or a loopback Host), never on a host a client made up: Auth.js builds its redirects, the sign-in page's
 * callbackUrl and the providers' redirect_uri from the request's URL. Both ends of a provider's sign-in read the same.
 */
function onTrustedOrigin(req: NextRequest): NextRequest {
  const origin = trustedOrigin(req.headers);
  const headers = new Headers(req.headers);
  headers.delete("x-forwarded-host");
  headers.delete("x-forwarded-proto");
  headers.set("host", new URL(origin).host);
  const url = new URL(`${req.nextUrl.pathname}${req.nextUrl.search}`, origin);
  // A plain Request: a NextRequest would turn 127.0.0.1 back into localhost.
  const request = new Request(url, {
    method: req.method,
    headers,
    body: req.body,
    signal: req.signal,
    duplex: "half",
  } as RequestInit) as NextRequest;
  // With AUTH_URL set, Auth.js reads nextUrl to put that origin on the request; this URL is on it already.
  Object.defineProperty(request, "nextUrl", { value: url });
  return request;
}

export const handlers = {
  GET: (req: NextRequest) => nextAuth.handlers.GET(onTrustedOrigin(req)),
  POST: (req: NextRequest) => nextAuth.handlers.POST(onTrustedOrigin(req)),
};
