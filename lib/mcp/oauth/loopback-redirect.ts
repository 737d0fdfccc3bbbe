import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { AuthorizationResponse } from "./authorization";

/** The authorization server's redirect back to us, checked: the code and issuer, or the error it reported. */
export function responseFromRedirect(redirect: URL, state: string): AuthorizationResponse {
  const error = redirect.searchParams.get("error");
  if (error) {
    const description = redirect.searchParams.get("error_description");
    throw new Error(
      `The authorization was not granted: ${description ? `${error} (${description})` : error}.`,
    );
  }
  if (redirect.searchParams.get("state") !== state)
    throw new Error("The authorization came back with a different state; it was not started here.");
  const code = redirect.searchParams.get("code");
  if (!code) throw new Error("The authorization came back without a code.");
  return { code, iss: redirect.searchParams.get("iss") ?? undefined };
}

const sameEndpoint = (a: URL, b: URL) => a.origin === b.origin && a.pathname === b.pathname;

/**
 * Opens the authorization URL as a browser would, without one: when the authorization server redirects straight
 * back (it needs no user, as test servers do), returns that redirect; when it wants a person, undefined.
 */
export async function followUnattendedAuthorization(
  authorizationUrl: URL,
  redirectUrl: string,
  fetchFn: typeof fetch,
): Promise<URL | undefined> {
  let url = authorizationUrl;
  for (let hop = 0; hop < 5; hop++) {
    const response = await fetchFn(url, { redirect: "manual" });
    await response.body?.cancel().catch(() => {});
    const location = response.headers.get("location");
    if (response.status < 300 || response.status >= 400 || !location) return undefined;
    const next = new URL(location, url);
    if (sameEndpoint(next, new URL(redirectUrl))) return next;
    url = next;
  }
  return undefined;
}

/** A one-shot listener on 127.0.0.1 that receives the authorization redirect from the user's browser. */
export async function openLoopbackRedirect() {
  let deliver: (url: URL) => void = () => {};
  const arrived = new Promise<URL>((resolve) => {
    deliver = resolve;
  });
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    if (url.pathname !== "/callback") {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { "content-type": "text/plain; charset=utf-8" });
    response.end("Authorization received. You can close this window.");
    deliver(url);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    redirectUrl: `http://127.0.0.1:${port}/callback`,
    async waitForRedirect(timeoutMs: number): Promise<URL> {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error("No authorization arrived in time.")), timeoutMs);
      });
      try {
        return await Promise.race([arrived, timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
