import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { isIP, type LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";
import { Agent, type Dispatcher, request } from "undici";
import { webStreamOf } from "@/lib/http/web-stream-of";
import { outgoingTraceHeaders } from "@/lib/tracing/tracer";

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

// Methods fetch writes in capitals whatever case they were given in.
const NORMALIZED_METHODS = new Set(["DELETE", "GET", "HEAD", "OPTIONS", "POST", "PUT"]);
const BODILESS_STATUSES = new Set([204, 205, 304]);
// A reason phrase the platform's Response accepts (tabs, spaces, visible and obs-text characters).
const REASON_PHRASE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** The body as fetch would send it (bytes or text), setting the content type fetch would give it. */
async function encodeBody(
  body: RequestInit["body"],
  headers: Headers,
): Promise<string | Uint8Array | undefined> {
  if (body === null || body === undefined) return undefined;
  if (typeof body === "string") {
    if (!headers.has("content-type")) headers.set("content-type", "text/plain;charset=UTF-8");
    return body;
  }
  // Form data, search parameters, bytes, a blob or a stream: encoded as fetch would, with its content type.
  const encoded = new Response(body);
  const type = encoded.headers.get("content-type");
  if (type && !headers.has("content-type")) headers.set("content-type", type);
  return new Uint8Array(await encoded.arrayBuffer());
}

/** What the guarded request answered: undici's answer, as it came, for the URL and method it ended at. */
export interface GuardedAnswer {
  answer: Dispatcher.ResponseData;
  url: URL;
  method: string;
  /** The body the request sent (after redirects, none if one turned it into a GET). */
  sent: string | Uint8Array | undefined;
}

/** A request through the address policy, answered as undici answers: what guardedFetchOf makes a fetch of. */
export type GuardedRequest = (input: string | URL | Request, init?: RequestInit) => Promise<GuardedAnswer>;

/**
 * undici's answer as the platform's Response, which the MCP SDK and the OAuth client read; `body` stands in for
 * the answer's own (what a decorator made of it: a string is sent as JSON).
 */
export function toResponse(
  { answer, url, method }: GuardedAnswer,
  body: ReadableStream<Uint8Array> | string = webStreamOf(answer.body),
): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  if (typeof body === "string") {
    headers.set("content-type", "application/json");
    headers.delete("content-length");
  }
  const bodiless = method === "HEAD" || BODILESS_STATUSES.has(answer.statusCode);
  if (bodiless) answer.body.dump().catch(() => {});
  const response = new Response(bodiless ? null : body, {
    status: answer.statusCode,
    statusText: REASON_PHRASE.test(answer.statusText) ? answer.statusText : "",
    headers,
  });
  Object.defineProperty(response, "url", { value: url.href });
  return response;
}

const headerValue = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/**
 * A fetch that refuses private addresses after DNS resolution, at connect time (so DNS rebinding cannot slip
 * through), and on every redirect hop (see createGuardedRequest).
 */
export function createGuardedFetch(
  allowPrivateNetwork: boolean,
  credentialHeaders: string[] = [],
): typeof fetch {
  return guardedFetchOf(createGuardedRequest(allowPrivateNetwork, credentialHeaders));
}

/** The guarded request as a fetch, its answer's body as it came. */
export function guardedFetchOf(request: GuardedRequest): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) =>
    toResponse(await request(input, init))) as typeof fetch;
}

/**
 * A request that refuses private addresses after DNS resolution, at connect time (so DNS rebinding cannot slip
 * through), and on every redirect hop. It sends with undici's request API rather than its fetch: fetch streams
 * even a string body in pieces, and leaves an abort listener on the caller's signal until the request is garbage
 * collected, and an MCP session passes one long-lived signal to all its requests (thousands of listeners piled
 * up, each new one slower to add). Errors and abort reasons come out as fetch's would.
 */
export function createGuardedRequest(
  allowPrivateNetwork: boolean,
  credentialHeaders: string[] = [],
): GuardedRequest {
  if (!allowPrivateNetwork) guardedAgent ??= new Agent({ connect: { lookup: guardedLookup } });
  const agent = allowPrivateNetwork ? undefined : guardedAgent;
  // Credentials belong to the integration's server: a redirect to another origin must not carry them.
  const secret = new Set([
    "authorization",
    "proxy-authorization",
    "cookie",
    ...credentialHeaders.map((h) => h.toLowerCase()),
  ]);
  return async (input: string | URL | Request, init?: RequestInit) => {
    let url = new URL(input instanceof Request ? input.url : input.toString());
    const headers = new Headers(init?.headers);
    if (!headers.has("accept")) headers.set("accept", "*/*");
    // The User-Agent undici's fetch sends; some servers refuse requests without one.
    if (!headers.has("user-agent")) headers.set("user-agent", "undici");
    // The active span's trace context, so a server that also traces joins the trace.
    for (const [name, value] of Object.entries(outgoingTraceHeaders()))
      if (!headers.has(name)) headers.set(name, value);
    const given = init?.method ?? "GET";
    let method = NORMALIZED_METHODS.has(given.toUpperCase()) ? given.toUpperCase() : given;
    let body = await encodeBody(init?.body, headers);
    const signal = init?.signal ?? undefined;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      if (agent) assertPublicLiteral(url);
      let answer: Dispatcher.ResponseData;
      try {
        answer = await request(url, {
          method: method as Dispatcher.HttpMethod,
          headers: Object.fromEntries(headers),
          body,
          signal,
          ...(agent ? { dispatcher: agent } : {}),
        });
      } catch (error) {
        if (signal?.aborted) throw signal.reason ?? error;
        throw new TypeError("fetch failed", { cause: error });
      }
      const location = headerValue(answer.headers.location);
      const status = answer.statusCode;
      if (status < 300 || status >= 400 || !location || init?.redirect === "manual") {
        return { answer, url, method, sent: body };
      }
      await answer.body.dump().catch(() => {});
      if (init?.redirect === "error") throw new TypeError(`Redirect refused: ${url.origin}`);
      const next = new URL(location, url);
      if (next.origin !== url.origin) {
        for (const name of [...headers.keys()]) if (secret.has(name.toLowerCase())) headers.delete(name);
      }
      url = next;
      // 303, and 301/302 after POST, turn into GET as browsers do.
      if (status === 303 || ((status === 301 || status === 302) && method === "POST")) {
        method = "GET";
        body = undefined;
        headers.delete("content-type");
        headers.delete("content-length");
      }
    }
    throw new TypeError(`Too many redirects from ${url.origin}`);
  };
}
