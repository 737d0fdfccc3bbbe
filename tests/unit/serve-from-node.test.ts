import { Agent, createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiRoute } from "@/lib/http/api-route";
import { nodeRouteFor } from "@/lib/http/node-routes.mjs";
import { readJsonBody } from "@/lib/http/read-json";
import { serveFromNode, withAuthorizationHeader } from "@/lib/http/serve-from-node";

let server: Server;
let origin: string;
let lastSignal: AbortSignal | undefined;

beforeAll(async () => {
  serveFromNode("POST", "/node/echo", async (req) => {
    const text = await req.text();
    return Response.json(
      { got: text, path: new URL(req.url).pathname, agent: req.headers.get("x-test") },
      { status: 201, headers: { "x-answer": "yes" } },
    );
  });
  serveFromNode("GET", "/node/keyed", async () => new Response("node"), { when: withAuthorizationHeader });
  serveFromNode("GET", "/node/large", async () => new Response(new Blob(["a".repeat(2_000_000), "end"])));
  serveFromNode("POST", "/node/hang", async (req) => {
    lastSignal = req.signal;
    await new Promise((resolve) => req.signal.addEventListener("abort", resolve));
    return new Response("too late");
  });
  serveFromNode(
    "POST",
    "/node/json",
    apiRoute("POST /node/json", async (req) => Response.json({ got: await readJsonBody(req) })),
  );
  serveFromNode<{ id: string }>("POST", "/node/items/[id]", async (_req, { params }) =>
    Response.json(await params),
  );
  // What scripts/serve.mjs does, with a stand-in for Next.js's handler.
  server = createServer((req, res) => {
    if (nodeRouteFor(req.method, req.url)?.(req, res)) return;
    res.end("next.js");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("serveFromNode", () => {
  it("answers a registered route with its handler's status, headers and body, plus the security headers", async () => {
    const answer = await request(`${origin}/node/echo?x=1`, {
      method: "POST",
      headers: { "x-test": "probe", "content-type": "text/plain" },
      body: "hello",
    });
    expect(answer.statusCode).toBe(201);
    expect(await answer.body.json()).toEqual({ got: "hello", path: "/node/echo", agent: "probe" });
    expect(answer.headers["x-answer"]).toBe("yes");
    expect(answer.headers["x-frame-options"]).toBe("DENY");
    expect(answer.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    // One chunk goes out with its length rather than chunked.
    expect(answer.headers["content-length"]).toBeDefined();
  });

  it.each([
    ["GET", "/node/echo"],
    ["POST", "/node/echo/"],
    ["POST", "/node"],
  ] as const)("leaves other methods and paths to Next.js: %s %s", async (method, path) => {
    const answer = await request(`${origin}${path}`, { method });
    expect(await answer.body.text()).toBe("next.js");
  });

  it("gives a route whose last segment is a parameter that segment, decoded", async () => {
    const answer = await request(`${origin}/node/items/a%20b?x=1`, { method: "POST" });
    expect(await answer.body.json()).toEqual({ id: "a b" });
    for (const path of ["/node/items/a/b", "/node/items/", "/node/items/%E0%A4%A"]) {
      const other = await request(`${origin}${path}`, { method: "POST" });
      expect(await other.body.text()).toBe("next.js");
    }
  });

  it("leaves requests its condition declines to Next.js", async () => {
    const keyed = await request(`${origin}/node/keyed`, { headers: { authorization: "Bearer k" } });
    expect(await keyed.body.text()).toBe("node");
    const signedIn = await request(`${origin}/node/keyed`, { headers: { cookie: "session=1" } });
    expect(await signedIn.body.text()).toBe("next.js");
  });

  it("sends a large body whole", async () => {
    const answer = await request(`${origin}/node/large`);
    const text = await answer.body.text();
    expect(text.length).toBe(2_000_003);
    expect(text.endsWith("end")).toBe(true);
  });

  it("aborts the request's signal when the client hangs up", async () => {
    const socket = connect((server.address() as AddressInfo).port, "127.0.0.1");
    socket.write("POST /node/hang HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\n\r\n");
    await expect.poll(() => lastSignal).toBeDefined();
    expect(lastSignal?.aborted).toBe(false);
    socket.destroy();
    await expect.poll(() => lastSignal?.aborted).toBe(true);
  });

  it("answers 400 to a request it cannot read as one", async () => {
    const socket = connect((server.address() as AddressInfo).port, "127.0.0.1");
    socket.write(
      "POST /node/echo HTTP/1.1\r\nHost: bad host\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
    );
    const reply = await new Promise<string>((resolve) => {
      let text = "";
      socket.on("data", (chunk) => {
        text += chunk;
      });
      socket.on("close", () => resolve(text));
    });
    expect(reply).toMatch(/^HTTP\/1.1 400/);
    expect(reply).toContain("The request could not be read.");
  });

  it("keeps answering on a keep-alive connection after refusing a body too large to read", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const post = (body: Buffer | string, headers: Record<string, string> = {}) =>
      new Promise<{ status: number; text: string; socket: unknown }>((resolve, reject) => {
        const req = httpRequest(`${origin}/node/json`, {
          method: "POST",
          agent,
          headers: { "content-type": "application/json", ...headers },
        });
        req.setTimeout(4000, () => req.destroy(new Error("no answer within 4 s")));
        req.on("error", reject);
        req.on("response", (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (chunk) => {
            text += chunk;
          });
          res.on("end", () => resolve({ status: res.statusCode ?? 0, text, socket: req.socket }));
        });
        req.end(body);
      });
    try {
      const large = Buffer.alloc(1_100_000, 0x20);
      const refused = await post(large);
      expect(refused.status).toBe(413);
      const chunkedRefused = await post(large, { "transfer-encoding": "chunked" });
      expect(chunkedRefused.status).toBe(413);
      for (let i = 0; i < 3; i++) {
        const answered = await post(JSON.stringify({ n: i }));
        expect(answered.status).toBe(200);
        expect(JSON.parse(answered.text)).toEqual({ got: { n: i } });
      }
    } finally {
      agent.destroy();
    }
  });
});
