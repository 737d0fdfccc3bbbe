import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { BlockList, isIP, type LookupFunction } from "node:net";
import { Agent, fetch as undiciFetch } from "undici";

const blocked = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, including the cloud metadata address 169.254.169.254
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  blocked.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7], // unique local, including AWS's fd00:ec2::254 metadata address
  ["fe80::", 10],
  ["ff00::", 8],
  ["64:ff9b::", 96],
] as const) {
  blocked.addSubnet(network, prefix, "ipv6");
}

/** True for loopback, private, link-local, metadata and other non-public addresses. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, "ipv4");
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped?.[1]) return blocked.check(mapped[1], "ipv4");
    return blocked.check(address, "ipv6");
  }
  return false;
}

export class PrivateNetworkError extends Error {
  constructor(host: string, address: string) {
    super(
      `Refused to connect to ${host}: it resolves to the private or local address ${address}. ` +
        "An administrator can allow this with MCP_ALLOW_PRIVATE_NETWORKS=true.",
    );
    this.name = "PrivateNetworkError";
  }
}

/** A DNS lookup that fails when any address of the host is private, used by every outgoing connection. */
const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, "", 0);
    const bad = addresses.find((entry) => isPrivateAddress(entry.address));
    if (bad) return callback(new PrivateNetworkError(hostname, bad.address), "", 0);
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
    const first = addresses[0];
    if (!first) return callback(new Error(`No address for ${hostname}`), "", 0);
    callback(null, first.address, first.family);
  });
};

function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, "");
}

/** Throws when the URL names a private address literally (DNS names are checked at connect time). */
export function assertPublicLiteral(url: URL) {
  const host = hostOf(url);
  if (host === "localhost" || host.endsWith(".localhost")) throw new PrivateNetworkError(host, "127.0.0.1");
  if (isIP(host) && isPrivateAddress(host)) throw new PrivateNetworkError(host, host);
}

const MAX_REDIRECTS = 5;
let guardedAgent: Agent | undefined;

/**
 * A fetch that refuses private addresses after DNS resolution, at connect time (so DNS rebinding cannot slip
 * through), and on every redirect hop.
 */
export function createGuardedFetch(
  allowPrivateNetwork: boolean,
  credentialHeaders: string[] = [],
): typeof fetch {
  if (!allowPrivateNetwork) guardedAgent ??= new Agent({ connect: { lookup: guardedLookup } });
  const agent = allowPrivateNetwork ? undefined : guardedAgent;
  // Credentials belong to the integration's server: a redirect to another origin must not carry them.
  const secret = new Set([
    "authorization",
    "proxy-authorization",
    "cookie",
    ...credentialHeaders.map((h) => h.toLowerCase()),
  ]);
  return (async (input: string | URL | Request, init?: RequestInit) => {
    let url = new URL(input instanceof Request ? input.url : input.toString());
    let requestInit = init;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      if (agent) assertPublicLiteral(url);
      const response = await undiciFetch(url, {
        ...(requestInit as Parameters<typeof undiciFetch>[1]),
        redirect: "manual",
        ...(agent ? { dispatcher: agent } : {}),
      });
      const location = response.headers.get("location");
      if (response.status < 300 || response.status >= 400 || !location || init?.redirect === "manual") {
        return response as unknown as Response;
      }
      if (init?.redirect === "error") throw new TypeError(`Redirect refused: ${url.origin}`);
      const next = new URL(location, url);
      if (next.origin !== url.origin) {
        const headers = new Headers(requestInit?.headers);
        for (const name of [...headers.keys()]) if (secret.has(name.toLowerCase())) headers.delete(name);
        requestInit = { ...requestInit, headers };
      }
      url = next;
      // 303, and 301/302 after POST, turn into GET as browsers do.
      if (
        response.status === 303 ||
        ((response.status === 301 || response.status === 302) && init?.method === "POST")
      ) {
        requestInit = { ...requestInit, method: "GET", body: undefined };
      }
    }
    throw new TypeError(`Too many redirects from ${url.origin}`);
  }) as typeof fetch;
}
