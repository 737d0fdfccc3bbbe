import type { Provider } from "next-auth/providers";
import Credentials from "next-auth/providers/credentials";
import GitHub from "next-auth/providers/github";
import { getDb } from "@/db/client";
import { getEnv } from "@/lib/env";
import { authenticate } from "./authenticate";

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
      authorize: async (credentials) => {
        const user = await authenticate(getDb(), credentials);
        return user ? { id: user.id, email: user.email, name: user.name } : null;
      },
    }),
  ];
  if (env.AUTH_GITHUB_ID && env.AUTH_GITHUB_SECRET) {
    providers.push(GitHub({ clientId: env.AUTH_GITHUB_ID, clientSecret: env.AUTH_GITHUB_SECRET }));
  }
  if (env.AUTH_OIDC_ID && env.AUTH_OIDC_SECRET && env.AUTH_OIDC_ISSUER) {
    providers.push({
      id: "oidc",
      name: env.AUTH_OIDC_NAME,
      type: "oidc",
      issuer: env.AUTH_OIDC_ISSUER,
      clientId: env.AUTH_OIDC_ID,
      clientSecret: env.AUTH_OIDC_SECRET,
    });
  }
  return providers;
}
