// @ts-check
// JavaScript, not TypeScript: the serving process runs on Node without a loader, which would cost it ~80 MB.
import { createServer } from "node:http";
import path from "node:path";
import next from "next";
import { endStreams, manageStop, serverClosed, startDraining } from "../lib/http/draining.mjs";
import { methodNotAllowed, ROUTE_METHODS } from "../lib/http/method-not-allowed.mjs";
import { nodeRouteFor } from "../lib/http/node-routes.mjs";

const EXIT_CODES = { SIGINT: 130, SIGTERM: 143 };

/**
 * Serves the production build on PORT: Next.js's request handler, behind the routes that register to be answered
 * straight from Node (the MCP gateway). Stops on SIGINT or SIGTERM after the requests in flight, as `next start`
 * does; on SIGTERM it first drains (see `stop`). `npm start` runs it after migrating and building.
 */
const port = Number(process.env.PORT || 3000);
manageStop();
const app = next({ dev: false, dir: path.resolve(import.meta.dirname, ".."), port });
const handle = app.getRequestHandler();
await app.prepare();
// Responses that stay open until the client leaves (event streams that answer no one request), ended on stop.
/** @type {Set<import("node:http").ServerResponse>} */
const openStreams = new Set();
const server = createServer((req, res) => {
  if (isLongLived(req)) {
    openStreams.add(res);
    res.once("close", () => openStreams.delete(res));
  }
  if (!ROUTE_METHODS.includes(req.method ?? "")) {
    void refuseMethod(req, res);
    return;
  }
  if (nodeRouteFor(req.method, req.url)?.(req, res)) return;
  void handle(req, res);
});

/**
 * A GET that opens an event stream (a 2025 session's stream), or a 2026-07-28 listen request.
 * @param {import("node:http").IncomingMessage} req
 */
function isLongLived(req) {
  return (
    (req.method === "GET" && (req.headers.accept ?? "").includes("text/event-stream")) ||
    req.headers["mcp-method"] === "subscriptions/listen"
  );
}

/**
 * A method no route can answer (TRACE, TRACK…), which Next.js would fail on with a 500 and a stack trace: a JSON
 * 405 whose Allow is what the route answers to OPTIONS (the same as its own 405s), asked of this server.
 * @param {import("node:http").IncomingMessage} req
 * @param {import("node:http").ServerResponse} res
 */
async function refuseMethod(req, res) {
  req.resume();
  // Only the path and query are taken from the request line: an absolute URL there must not lead elsewhere.
  const { pathname, search } = new URL(req.url ?? "/", "http://localhost");
  let allow = "GET, HEAD, OPTIONS";
  try {
    const address = /** @type {import("node:net").AddressInfo} */ (server.address());
    const probe = await fetch(`http://127.0.0.1:${address.port}${pathname}${search}`, {
      method: "OPTIONS",
      redirect: "manual",
    });
    await probe.body?.cancel();
    allow = probe.headers.get("allow") ?? allow;
  } catch {
    // The default above stands: what every page answers.
  }
  const { status, headers, body } = methodNotAllowed(
    req.method ?? "",
    pathname,
    allow.split(",").map((method) => method.trim()),
  );
  res.writeHead(status, headers).end(body);
}
server.listen(port, () => console.log(`Ready on http://localhost:${port}`));

// How long a stopping instance keeps taking requests while it answers not ready, so that load balancers stop
// sending it new ones before it closes: a few of their health-check intervals.
const drainMs = Number(process.env.SHUTDOWN_DRAIN_MS || 0);
const STREAM_END_GRACE_MS = 1_000;

let stopping = false;
/**
 * SIGTERM (an orchestrator's stop): readiness answers 503 at once and the instance goes on answering for
 * SHUTDOWN_DRAIN_MS; then its long-lived event streams end (their clients resume on another instance), it takes no
 * new connection, finishes the requests in flight, writes its queued usage and exits. SIGINT skips the wait.
 * @param {keyof typeof EXIT_CODES} signal
 */
function stop(signal) {
  if (stopping) return;
  stopping = true;
  startDraining();
  const wait = signal === "SIGTERM" ? drainMs : 0;
  if (wait > 0) console.log(`Stopping: not ready, closing in ${wait} ms`);
  setTimeout(() => {
    endStreams();
    server.close(() => {
      void serverClosed()
        .then(() => app.close())
        .finally(() => process.exit(EXIT_CODES[signal]));
    });
    // Idle keep-alive connections would hold the close open until they time out.
    server.closeIdleConnections();
    // A stream its route did not end by itself is cut: its client reconnects, and the load balancer sends it on.
    setTimeout(() => {
      for (const res of openStreams) res.destroy();
    }, STREAM_END_GRACE_MS).unref();
  }, wait);
}
process.on("SIGINT", () => stop("SIGINT"));
process.on("SIGTERM", () => stop("SIGTERM"));
