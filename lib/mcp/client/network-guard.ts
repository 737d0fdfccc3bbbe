import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { isIP, type LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";
import { Agent, fetch as undiciFetch } from "undici";

/**
 * Which addresses an integration may reach is decided by ipaddr.js's range classification (IANA's
 * special-purpose registries), not by a hand-kept list: an IPv4 address must classify as "unicast", and an
 * IPv6 address as "unicast" inside global unicast space (2000::/3). IPv6 forms that carry an IPv4 address are
 * judged by that address (IPv4-mapped, the NAT64 well-known prefix) or refused outright (6to4, Teredo, the
 * local-use NAT64 prefix 64:ff9b:1::/48, IPv4-compatible and -translated forms): where those lead depends on
 * a gateway we cannot see.
 *
 * The short list below only covers ranges that ipaddr.js 1.x does not name yet (2.x does); it can only refuse
 * more, never allow anything the library classifies as special.
 */
const notNamedByIpaddr1 = {
  v4: [ipaddr.IPv4.parseCIDR("198.18.0.0/15")], // benchmarking (RFC 2544)
  v6: [
    ipaddr.IPv6.parseCIDR("2001::/23"), // IETF protocol assignments: Teredo, benchmarking, ORCHID, AMT, ...
    ipaddr.IPv6.parseCIDR("3fff::/20"), // documentation (RFC 9637)
  ],
};
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR("2000::/3");
const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR("64:ff9b::/96");

function isPublicV4(address: ipaddr.IPv4): boolean {
  if (address.range() !== "unicast") return false;
  return !notNamedByIpaddr1.v4.some((range) => address.match(range));
}

function isPublicV6(address: ipaddr.IPv6): boolean {
  if (address.isIPv4MappedAddress()) return isPublicV4(address.toIPv4Address());
  if (address.match(NAT64_WELL_KNOWN)) {
    // RFC 6052: the well-known prefix carries the IPv4 address in its last 32 bits.
    const [high = 0, low = 0] = address.parts.slice(-2);
    return isPublicV4(new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]));
  }
  if (address.range() !== "unicast" || !address.match(GLOBAL_UNICAST_V6)) return false;
  return !notNamedByIpaddr1.v6.some((range) => address.match(range));
}

/**
 * True for every address that is not global unicast: loopback, private, link-local (including the cloud
 * metadata addresses 169.254.169.254 and fd00:ec2::254), shared, documentation, benchmarking, multicast,
 * reserved, and IPv6 forms that embed or lead to one of those. Host names (not addresses) are false: they
 * are checked after DNS resolution.
 */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  try {
    if (family === 4) return !isPublicV4(ipaddr.IPv4.parse(address));
    // Node accepts a zone index ("fe80::1%eth0"); the zone does not change which range the address is in.
    return !isPublicV6(ipaddr.IPv6.parse(address.split("%")[0] ?? address));
  } catch {
    return true; // an address we cannot classify is not reached
  }
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
