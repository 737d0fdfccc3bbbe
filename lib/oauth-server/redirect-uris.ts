const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"]);

function parse(uri: string): URL | undefined {
  try {
    return new URL(uri);
  } catch {
    return undefined;
  }
}

export const isLoopbackRedirect = (url: URL) => url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname);

/**
 * Why a client may not register this redirect URI, or undefined when it may: an absolute https URL, or http on a
 * loopback address for desktop clients (RFC 8252), without a fragment or credentials.
 */
export function redirectUriProblem(uri: string): string | undefined {
  const url = parse(uri);
  if (!url) return `"${uri}" is not an absolute URL.`;
  if (url.hash || uri.includes("#")) return `"${uri}" has a fragment, which a redirect URI may not have.`;
  if (url.username || url.password) return `"${uri}" carries credentials.`;
  if (url.protocol === "https:" || isLoopbackRedirect(url)) return undefined;
  return `"${uri}" must use https, or http on a loopback address (127.0.0.1, [::1], localhost) for a desktop client.`;
}

/**
 * Whether a redirect URI sent with an authorization request is one the client registered: the exact string,
 * except that a loopback redirect may name any port (RFC 8252 §7.3), as desktop clients pick one when they start.
 */
export function isRegisteredRedirect(registered: readonly string[], requested: string): boolean {
  if (registered.includes(requested)) return true;
  const url = parse(requested);
  if (!url || !isLoopbackRedirect(url)) return false;
  const withoutPort = (value: URL) => `${value.protocol}//${value.hostname}${value.pathname}${value.search}`;
  return registered.some((entry) => {
    const candidate = parse(entry);
    return !!candidate && isLoopbackRedirect(candidate) && withoutPort(candidate) === withoutPort(url);
  });
}

/** The host a person is sent back to, as the consent page shows it and organizations allow it. */
export const redirectHost = (uri: string) => parse(uri)?.hostname.replace(/^\[|\]$/g, "") ?? uri;

/** Whether an organization's list of allowed redirect hosts (null: any) lets the client send people there. */
export function redirectHostAllowed(allowed: readonly string[] | null, uri: string): boolean {
  if (allowed === null) return true;
  const host = redirectHost(uri).toLowerCase();
  return allowed.some((entry) => entry.toLowerCase() === host);
}
