import { headers } from "next/headers";
import { type Env, getEnv } from "@/lib/env";
import { logger } from "@/lib/logger";

const LOOPBACK_HOST = /^(localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\])(:\d{1,5})?$/i;

const firstValue = (value: string | null) => value?.split(",")[0]?.trim() || undefined;

let warnedUnset = false;

/**
 * The address users reach the app at, for its redirects, links and OAuth issuer, never taken from a header a client
 * controls: AUTH_URL when set; else, behind a proxy the operator declares (AUTH_TRUST_HOST), the host and scheme it
 * forwards; else the Host header only when it names this machine (localhost, 127.x, [::1]: any answer is then on
 * the client's own machine); else http://localhost:PORT.
 */
export function trustedOrigin(requestHeaders: Headers, env: Env = getEnv()): string {
  if (env.AUTH_URL) return new URL(env.AUTH_URL).origin;
  const host = firstValue(requestHeaders.get("host"));
  if (env.AUTH_TRUST_HOST) {
    const forwardedHost = firstValue(requestHeaders.get("x-forwarded-host")) ?? host;
    if (forwardedHost) {
      const proto = firstValue(requestHeaders.get("x-forwarded-proto"))?.replace(/:$/, "");
      const scheme =
        proto === "http" || proto === "https" ? proto : loopback(forwardedHost) ? "http" : "https";
      const origin = originOf(`${scheme}://${forwardedHost}`);
      if (origin) return origin;
    }
  }
  if (host && loopback(host)) return `http://${host.toLowerCase()}`;
  if (!warnedUnset) {
    warnedUnset = true;
    logger.warn(
      "AUTH_URL is not set: links and redirects use http://localhost; set AUTH_URL to the public address",
      {
        port: env.PORT,
      },
    );
  }
  return `http://localhost:${env.PORT}`;
}

const loopback = (host: string) => LOOPBACK_HOST.test(host);

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/** The app's trusted origin for server actions and pages (see trustedOrigin); no request is read when configured. */
export async function appOrigin(): Promise<string> {
  const env = getEnv();
  if (env.AUTH_URL) return new URL(env.AUTH_URL).origin;
  return trustedOrigin(await headers(), env);
}

/** Where OAuth providers send the browser back after consent. */
export async function oauthRedirectUrl(): Promise<string> {
  return `${await appOrigin()}/api/oauth/callback`;
}
