import type { LookupAddress, LookupAllOptions } from "node:dns";
import { getEventListeners } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import {
  assertPublicLiteral,
  createGuardedFetch,
  isPrivateAddress,
  PrivateNetworkError,
} from "@/lib/mcp/client/network-guard";

/** A host name our stubbed DNS resolves to loopback, as a DNS-rebinding attacker's name would. */
const REBINDING_HOST = "rebinding.attacker.test";
/** A host name our stubbed DNS resolves to the NAT64 form of the cloud metadata address. */
const NAT64_HOST = "nat64.attacker.test";

type RequestOptions = {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  dispatcher?: unknown;
};
type UndiciRequestArgs = [input: unknown, init?: RequestOptions];

/**
 * undici's request, as the guard calls it: real unless a test scripts the answers (as platform Responses, turned
 * into what undici answers), so redirect handling can be tested with public-looking first hops without any request
 * leaving the process.
 */
const undiciStub = vi.hoisted(() => ({
  calls: [] as UndiciRequestArgs[],
  script: undefined as ((url: URL, init: UndiciRequestArgs[1]) => Response) | undefined,
}));

vi.mock("undici", async (importOriginal) => {
  const actual = await importOriginal<typeof import("undici")>();
  const { Readable } = await import("node:stream");
  const request = async (...args: UndiciRequestArgs) => {
    undiciStub.calls.push(args);
    const script = undiciStub.script;
    if (!script) return actual.request(...(args as Parameters<typeof actual.request>));
    const response = script(new URL(String(args[0])), args[1]);
    const body = Object.assign(Readable.from([Buffer.from(await response.arrayBuffer())]), {
      dump: async () => {},
    });
    return {
      statusCode: response.status,
      statusText: response.statusText,
      headers: Object.fromEntries(response.headers),
      body,
      trailers: {},
    };
  };
  return { ...actual, request };
});

/** The names the guard asked the (stubbed) DNS for, in order. */
const dnsStub = vi.hoisted(() => ({ lookups: [] as string[] }));

vi.mock("node:dns", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:dns")>();
  const lookup = (
    hostname: string,
    _options: LookupAllOptions,
    callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
  ) => {
    dnsStub.lookups.push(hostname);
    if (hostname === REBINDING_HOST) {
      callback(null, [{ address: "127.0.0.1", family: 4 }]);
      return;
    }
    if (hostname === NAT64_HOST) {
      callback(null, [{ address: "64:ff9b::a9fe:a9fe", family: 6 }]);
      return;
    }
    // Nothing else is looked up by these tests; refuse rather than reach a real resolver.
    callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" }), []);
  };
  return { ...actual, lookup };
});

/** Walks an error and its causes, collecting their messages. */
function messagesOf(error: unknown): string {
  const messages: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current instanceof Error; depth++) {
    messages.push(current.message);
    current = current.cause;
  }
  return messages.join(" <- ");
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

describe("isPrivateAddress", () => {
  it.each([
    "127.0.0.1",
    "10.0.0.1",
    "10.255.255.254",
    "172.16.0.1",
    "172.31.255.254",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "::1",
    "::",
    "fd00:ec2::254",
    "fe80::1",
    "::ffff:127.0.0.1",
    "::ffff:169.254.169.254",
  ])("treats %s as private", (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each(["8.8.8.8", "1.1.1.1", "172.32.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"])(
    "treats %s as public",
    (address) => {
      expect(isPrivateAddress(address)).toBe(false);
    },
  );

  // Issue 14, item 20: ranges the hand-written list missed. Everything that is not global unicast is refused.
  it.each([
    ["192.0.2.1", "TEST-NET-1 documentation"],
    ["198.51.100.7", "TEST-NET-2 documentation"],
    ["203.0.113.9", "TEST-NET-3 documentation"],
    ["192.88.99.1", "6to4 relay anycast"],
    ["255.255.255.255", "limited broadcast"],
    ["198.18.0.1", "benchmarking"],
    ["64:ff9b::7f00:1", "NAT64 well-known prefix embedding 127.0.0.1"],
    ["64:ff9b::a9fe:a9fe", "NAT64 well-known prefix embedding 169.254.169.254"],
    ["64:ff9b::c000:201", "NAT64 well-known prefix embedding 192.0.2.1"],
    ["64:ff9b:1::a00:1", "local-use NAT64 prefix 64:ff9b:1::/48"],
    ["2001::1", "Teredo 2001::/32"],
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "Teredo with a server and client embedded"],
    ["2002:7f00:1::1", "6to4 embedding 127.0.0.1"],
    ["2002:a9fe:a9fe::1", "6to4 embedding 169.254.169.254"],
    ["2002:c0a8:101::1", "6to4 embedding 192.168.1.1"],
    ["::7f00:1", "IPv4-compatible 127.0.0.1 (hex)"],
    ["::127.0.0.1", "IPv4-compatible 127.0.0.1 (dotted)"],
    ["::a9fe:a9fe", "IPv4-compatible 169.254.169.254"],
    ["::ffff:7f00:1", "IPv4-mapped 127.0.0.1 written in hex"],
    ["::ffff:a9fe:a9fe", "IPv4-mapped 169.254.169.254 written in hex"],
    ["0:0:0:0:0:ffff:7f00:1", "IPv4-mapped 127.0.0.1, uncompressed"],
    ["::ffff:192.0.2.1", "IPv4-mapped documentation address"],
    ["::ffff:0:7f00:1", "IPv4-translated (RFC 6145) 127.0.0.1"],
    ["2001:db8::1", "IPv6 documentation"],
    ["3fff::1", "IPv6 documentation (RFC 9637)"],
    ["2001:2::1", "IPv6 benchmarking"],
    ["2001:10::1", "ORCHID"],
    ["100::1", "IPv6 discard-only"],
    ["fec0::1", "deprecated site-local"],
    ["fe80::1%eth0", "link-local with a zone index"],
    ["ff02::1", "multicast"],
  ])("treats %s (%s) as private", (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each(["64:ff9b::808:808", "2a00:1450:4001:80b::200e", "::ffff:808:808"])(
    "treats %s as public (global unicast, or a public IPv4 address behind the NAT64 well-known prefix)",
    (address) => {
      expect(isPrivateAddress(address)).toBe(false);
    },
  );

  it("treats a host name (not an address) as not private, leaving it to the DNS check", () => {
    expect(isPrivateAddress("localhost")).toBe(false);
  });
});

describe("assertPublicLiteral", () => {
  it.each([
    "http://localhost:3000/mcp",
    "http://api.localhost/mcp",
    "http://127.0.0.1/mcp",
    "http://[::1]:8080/mcp",
    "http://169.254.169.254/latest/meta-data",
    "http://10.1.2.3/mcp",
    "http://[fd00:ec2::254]/latest",
    "http://[::ffff:127.0.0.1]/mcp",
    "http://192.0.2.10/mcp",
    "http://[64:ff9b::a9fe:a9fe]/latest/meta-data",
    "http://[64:ff9b:1::a00:1]/mcp",
    "http://[2002:7f00:1::1]/mcp",
    "http://[2001::1]/mcp",
    "http://[::7f00:1]/mcp",
  ])("throws PrivateNetworkError for %s", (url) => {
    expect(() => assertPublicLiteral(new URL(url))).toThrow(PrivateNetworkError);
  });

  it.each(["https://example.com/mcp", "https://8.8.8.8/mcp", "https://[2606:4700:4700::1111]/mcp"])(
    "accepts %s",
    (url) => {
      expect(() => assertPublicLiteral(new URL(url))).not.toThrow();
    },
  );

  it("tells the administrator how to allow private networks", () => {
    expect(() => assertPublicLiteral(new URL("http://127.0.0.1/"))).toThrow(
      /MCP_ALLOW_PRIVATE_NETWORKS=true/,
    );
  });
});

describe("createGuardedFetch against a loopback server", () => {
  let server: Server;
  let port: number;
  const requests: string[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      requests.push(req.url ?? "");
      res.end("hello from loopback");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("refuses http://127.0.0.1 when private networks are not allowed, without reaching the server", async () => {
    const before = requests.length;

    const error = await rejection(createGuardedFetch(false)(`http://127.0.0.1:${port}/`));

    expect(messagesOf(error)).toContain("MCP_ALLOW_PRIVATE_NETWORKS");
    expect(requests.length).toBe(before);
  });

  it("refuses a host name that resolves to loopback at connect time (DNS rebinding)", async () => {
    const before = requests.length;

    const error = await rejection(createGuardedFetch(false)(`http://${REBINDING_HOST}:${port}/`));

    expect(messagesOf(error)).toContain("MCP_ALLOW_PRIVATE_NETWORKS");
    expect(requests.length).toBe(before);
  });

  it("resolves and checks the name again for every connection, so nothing kept lets a rebinding name through", async () => {
    const before = requests.length;
    const guarded = createGuardedFetch(false);
    dnsStub.lookups.length = 0;

    for (let attempt = 0; attempt < 3; attempt++) {
      const error = await rejection(
        guarded(`http://${REBINDING_HOST}:${port}/`, {
          method: "POST",
          body: "{}",
          signal: AbortSignal.timeout(5000),
        }),
      );
      expect(messagesOf(error)).toContain("MCP_ALLOW_PRIVATE_NETWORKS");
    }

    expect(dnsStub.lookups.filter((name) => name === REBINDING_HOST)).toHaveLength(3);
    expect(requests.length).toBe(before);
  });

  it("refuses a host name that resolves to an IPv6 form embedding the metadata address (NAT64)", async () => {
    const error = await rejection(createGuardedFetch(false)(`http://${NAT64_HOST}:${port}/`));

    expect(error).toBeDefined();
    expect(messagesOf(error)).toContain("64:ff9b::a9fe:a9fe");
    expect(messagesOf(error)).toContain("MCP_ALLOW_PRIVATE_NETWORKS");
  });

  it("reaches the loopback server when private networks are allowed", async () => {
    const response = await createGuardedFetch(true)(`http://127.0.0.1:${port}/allowed`);

    expect(response.status).toBe(200);
    expect(await response.text()).toBe("hello from loopback");
    expect(requests).toContain("/allowed");
  });
});

describe("createGuardedFetch answers as fetch would", () => {
  let server: Server;
  let base: string;

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        if (req.url === "/empty") return res.writeHead(204).end();
        if (req.url === "/hang") return res.writeHead(200, { "content-type": "text/plain" }).write("partial");
        res.writeHead(201, "Made It", { "content-type": "application/json", "set-cookie": ["a=1", "b=2"] });
        res.end(
          JSON.stringify({
            method: req.method,
            type: req.headers["content-type"],
            length: req.headers["content-length"],
            body: Buffer.concat(chunks).toString(),
          }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("sends the method and body, and answers with status, reason, headers, body and URL", async () => {
    const response = await createGuardedFetch(true)(`${base}/echo`, { method: "post", body: '{"x":1}' });

    expect(response).toBeInstanceOf(Response);
    expect([response.status, response.statusText, response.ok, response.url]).toEqual([
      201,
      "Made It",
      true,
      `${base}/echo`,
    ]);
    expect(response.headers.get("set-cookie")).toBe("a=1, b=2");
    expect(await response.json()).toEqual({
      method: "POST",
      type: "text/plain;charset=UTF-8",
      length: "7",
      body: '{"x":1}',
    });
  });

  it("encodes form bodies as fetch does, and answers 204 with no body", async () => {
    const form = await createGuardedFetch(true)(`${base}/echo`, {
      method: "POST",
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: "r t" }),
    });
    expect(await form.json()).toMatchObject({
      type: "application/x-www-form-urlencoded;charset=UTF-8",
      body: "grant_type=refresh_token&refresh_token=r+t",
    });
    const empty = await createGuardedFetch(true)(`${base}/empty`);
    expect([empty.status, empty.body]).toEqual([204, null]);
  });

  it("fails like fetch: a refused connection is a TypeError, an abort rejects with the signal's reason", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const refused = await rejection(createGuardedFetch(true)(`http://127.0.0.1:${port}/`));
    expect(refused).toBeInstanceOf(TypeError);
    expect(messagesOf(refused)).toMatch(/fetch failed <- .*ECONNREFUSED/);

    const controller = new AbortController();
    const reason = new Error("the session closed");
    const hanging = await createGuardedFetch(true)(`${base}/hang`, { signal: controller.signal });
    const reader = hanging.body?.getReader();
    expect(new TextDecoder().decode((await reader?.read())?.value)).toBe("partial");
    controller.abort(reason);
    await expect(reader?.read()).rejects.toBe(reason);
    await expect(createGuardedFetch(true)(`${base}/echo`, { signal: controller.signal })).rejects.toBe(
      reason,
    );
  });

  it("leaves no abort listener on a signal shared by many requests (an MCP session's)", async () => {
    const session = new AbortController();
    const guarded = createGuardedFetch(true);
    for (let i = 0; i < 20; i++)
      await (await guarded(`${base}/echo`, { method: "POST", body: "{}", signal: session.signal })).text();
    expect(getEventListeners(session.signal, "abort")).toHaveLength(0);
  });
});

describe("createGuardedFetch redirects (scripted responses, no request leaves the process)", () => {
  beforeEach(() => {
    undiciStub.calls.length = 0;
  });

  afterEach(() => {
    undiciStub.script = undefined;
  });

  const redirect = (status: number, location: string) =>
    new Response(null, { status, headers: { location } });

  it("refuses a redirect to the cloud metadata address without requesting it", async () => {
    undiciStub.script = () => redirect(302, "http://169.254.169.254/latest/meta-data");

    const error = await rejection(createGuardedFetch(false)("https://mcp.example.com/mcp"));

    expect(error).toBeInstanceOf(PrivateNetworkError);
    expect(undiciStub.calls.map(([input]) => String(input))).toEqual(["https://mcp.example.com/mcp"]);
  });

  it("refuses a redirect to localhost", async () => {
    undiciStub.script = () => redirect(307, "http://localhost:8080/admin");

    await expect(createGuardedFetch(false)("https://mcp.example.com/mcp")).rejects.toBeInstanceOf(
      PrivateNetworkError,
    );
    expect(undiciStub.calls).toHaveLength(1);
  });

  it("sends every hop through the guarded dispatcher", async () => {
    undiciStub.script = (url) =>
      url.pathname === "/mcp" ? redirect(308, "/v2/mcp") : new Response("ok", { status: 200 });

    const response = await createGuardedFetch(false)("https://mcp.example.com/mcp");

    expect(await response.text()).toBe("ok");
    expect(undiciStub.calls.map(([input]) => String(input))).toEqual([
      "https://mcp.example.com/mcp",
      "https://mcp.example.com/v2/mcp",
    ]);
    for (const [, init] of undiciStub.calls) expect(init?.dispatcher).toBeDefined();
  });

  it("keeps method and body on a 307 and turns a 303 into a GET without body", async () => {
    undiciStub.script = (url) =>
      url.pathname === "/a"
        ? redirect(307, "/b")
        : url.pathname === "/b"
          ? redirect(303, "/c")
          : new Response("done", { status: 200 });

    await createGuardedFetch(false)("https://mcp.example.com/a", { method: "POST", body: "{}" });

    expect(undiciStub.calls.map(([, init]) => [init?.method, init?.body])).toEqual([
      ["POST", "{}"],
      ["POST", "{}"],
      ["GET", undefined],
    ]);
  });

  it("returns the redirect itself when the caller asked for manual redirects", async () => {
    undiciStub.script = () => redirect(302, "https://elsewhere.example.org/");

    const response = await createGuardedFetch(false)("https://mcp.example.com/mcp", { redirect: "manual" });

    expect(response.status).toBe(302);
    expect(undiciStub.calls).toHaveLength(1);
  });

  it("refuses to follow when the caller asked for redirect errors", async () => {
    undiciStub.script = () => redirect(302, "https://elsewhere.example.org/");

    await expect(
      createGuardedFetch(false)("https://mcp.example.com/mcp", { redirect: "error" }),
    ).rejects.toThrow(/Redirect refused/);
    expect(undiciStub.calls).toHaveLength(1);
  });

  it("gives up after five redirects", async () => {
    let hop = 0;
    undiciStub.script = () => redirect(302, `/hop-${++hop}`);

    await expect(createGuardedFetch(false)("https://mcp.example.com/mcp")).rejects.toThrow(
      /Too many redirects/,
    );
    expect(undiciStub.calls).toHaveLength(6);
  });

  it("keeps the Authorization header on a same-origin redirect", async () => {
    undiciStub.script = (url) =>
      url.pathname === "/mcp" ? redirect(307, "/v2/mcp") : new Response("ok", { status: 200 });

    await createGuardedFetch(false)("https://mcp.example.com/mcp", {
      method: "POST",
      headers: { Authorization: "Bearer secret-token" },
      body: "{}",
    });

    const second = undiciStub.calls[1]?.[1];
    expect(new Headers(second?.headers).get("authorization")).toBe("Bearer secret-token");
  });

  // BUG (lib/mcp/client/network-guard.ts, createGuardedFetch): the manual redirect loop re-sends the caller's
  // init, headers included, to whatever origin the Location names. The fetch standard (and undici's and
  // Node's own fetch, used when private networks are allowed) drop Authorization on a cross-origin
  // redirect, so a server answering 307 to another host receives the integration's decrypted bearer token.
  it("drops the Authorization header on a cross-origin redirect", async () => {
    undiciStub.script = (url) =>
      url.hostname === "mcp.example.com"
        ? redirect(307, "https://collector.example.net/steal")
        : new Response("ok", { status: 200 });

    await createGuardedFetch(false)("https://mcp.example.com/mcp", {
      method: "POST",
      headers: new Headers({ Authorization: "Bearer secret-token", "content-type": "application/json" }),
      body: "{}",
    });

    expect(undiciStub.calls.map(([input]) => new URL(String(input)).hostname)).toEqual([
      "mcp.example.com",
      "collector.example.net",
    ]);
    const crossOrigin = undiciStub.calls[1]?.[1];
    expect(new Headers(crossOrigin?.headers).get("authorization")).toBeNull();
  });
});
