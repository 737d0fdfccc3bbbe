import { CredentialsSignin } from "next-auth";
import type { Provider } from "next-auth/providers";
import Credentials from "next-auth/providers/credentials";
import GitHub from "next-auth/providers/github";
import { getDb } from "@/db/client";
import { getEnv } from "@/lib/env";
import { authenticate, SignInThrottledError } from "./authenticate";
import { clientAddress } from "./sign-in-throttle";

/**
 * A sign-in refused because of too many attempts. Auth.js hands it as is to the sign-in server action, which shows
 * its message; a direct POST to Auth.js's callback gets `?error=CredentialsSignin&code=too_many_attempts`.
 */
export class TooManySignInAttempts extends CredentialsSignin {
  code = "too_many_attempts";
  /** "Too many sign-in attempts. Try again in N minutes." (Auth.js appends a link to `message`.) */
  readonly userMessage: string;
  constructor(readonly retryAfterSeconds: number) {
    const { message } = new SignInThrottledError(retryAfterSeconds);
    super(message);
    this.userMessage = message;
  }
}

export interface ExternalProvider {
  id: string;
  name: string;
}

/** The OAuth/OIDC providers switched on by environment variables, for the sign-in page's buttons. */
export function externalProviders(): ExternalProvider[] {
  const env = getEnv();
  const list: ExternalProvider[] = [];
  if (env.AUTH_GITHUB_ID) list.push({ id: "github", name: "GitHub" });
  if (env.AUTH_OIDC_ID) list.push({ id: "oidc", name: env.AUTH_OIDC_NAME });
  return list;
}

export function authProviders(): Provider[] {
  const env = getEnv();
  const providers: Provider[] = [
    Credentials({
      credentials: { email: { type: "email" }, password: { type: "password" } },
      authorize: async (credentials, request) => {
        try {
          const user = await authenticate(getDb(), credentials, { address: clientAddress(request?.headers) });
          return user
            ? { id: user.id, email: user.email, name: user.name, sessionVersion: user.sessionVersion }
            : null;
        } catch (error) {
          if (!(error instanceof SignInThrottledError)) throw error;
          throw new TooManySignInAttempts(error.retryAfterSeconds);
        }
      },
    }),
  ];
  if (env.AUTH_GITHUB_ID && env.AUTH_GITHUB_SECRET) {
    providers.push(
      GitHub({
        clientId: env.AUTH_GITHUB_ID,
        clientSecret: env.AUTH_GITHUB_SECRET,
        userinfo: { request: githubProfileWithVerifiedEmail },
      }),
    );
  }
  if (env.AUTH_OIDC_ID && env.AUTH_OIDC_SECRET && env.AUTH_OIDC_ISSUER) {
    providers.push({
      id: "oidc",
      name: env.AUTH_OIDC_NAME,
      type: "oidc",
      issuer: env.AUTH_OIDC_ISSUER,
      clientId: env.AUTH_OIDC_ID,
      clientSecret: env.AUTH_OIDC_SECRET,
      // Email and name from the userinfo endpoint (its `sub` checked against the ID token's): in the code flow
      // OpenID Connect releases scope claims there, and conforming providers leave them out of the ID token.
      idToken: false,
    });
  }
  return providers;
}

interface GitHubEmail {
  email: string;
  primary: boolean;
  verified: boolean;
}

/**
 * GitHub's profile with an address GitHub has verified (the primary one, else another verified one, else none):
 * sign-in matches accounts by email, and Auth.js's default takes the primary address even when unverified.
 */
async function githubProfileWithVerifiedEmail({
  tokens,
  provider,
}: {
  tokens: { access_token?: string };
  provider: { userinfo?: { url?: URL } };
}) {
  const userUrl = provider.userinfo?.url?.toString() ?? "https://api.github.com/user";
  const headers = { Authorization: `Bearer ${tokens.access_token}`, "User-Agent": "switchboard" };
  const profile = (await (await fetch(userUrl, { headers })).json()) as Record<string, unknown>;
  const response = await fetch(`${userUrl}/emails`, { headers });
  const emails = response.ok ? ((await response.json()) as GitHubEmail[]) : [];
  const verified = emails.filter((entry) => entry.verified);
  const email = (verified.find((entry) => entry.primary) ?? verified[0])?.email ?? null;
  return { ...profile, email };
}
