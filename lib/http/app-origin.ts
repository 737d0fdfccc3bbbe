import { headers } from "next/headers";

const loopback = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?$/;

/**
 * The address users reach the app at, for server actions: AUTH_URL when set (as Auth.js reads it), else the
 * browser's own Origin (sent with every action), else the host a proxy reports.
 */
export async function appOrigin(): Promise<string> {
  const configured = process.env.AUTH_URL;
  if (configured) return new URL(configured).origin;
  const request = await headers();
  const origin = request.get("origin");
  if (origin && origin !== "null") return new URL(origin).origin;
  const host = (request.get("x-forwarded-host") ?? request.get("host") ?? "localhost:3000")
    .split(",")[0]
    ?.trim();
  const proto =
    request.get("x-forwarded-proto")?.split(",")[0]?.trim() ?? (loopback.test(host ?? "") ? "http" : "https");
  return `${proto}://${host}`;
}

/** Where OAuth providers send the browser back after consent. */
export async function oauthRedirectUrl(): Promise<string> {
  return `${await appOrigin()}/api/oauth/callback`;
}
