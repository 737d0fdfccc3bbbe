const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

function hostnameOf(value: string, withScheme: boolean): string | null {
  try {
    return new URL(withScheme ? value : `http://${value}`).hostname.toLowerCase();
  } catch {
    return null;
  }
}

/**
 * DNS rebinding protection: the Host (and Origin, when a browser sends one) must name this server, either
 * localhost or one of the configured host names. Returns why a request is refused, or null.
 */
export function refuseForeignHost(headers: Headers, allowedHosts: readonly string[]): string | null {
  const allowed = (hostname: string | null) =>
    hostname !== null && (LOOPBACK.has(hostname) || allowedHosts.includes(hostname));
  const host = headers.get("host");
  if (!host || !allowed(hostnameOf(host, false)))
    return "This host name is not allowed. Add it to MCP_ALLOWED_HOSTS to serve the gateway under it.";
  const origin = headers.get("origin");
  if (origin !== null && !allowed(hostnameOf(origin, true)))
    return "Requests from this origin are not allowed.";
  return null;
}
