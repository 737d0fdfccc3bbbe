// @ts-check
// JavaScript, not TypeScript: the serving process runs on Node without a loader, which would cost it ~80 MB.
import { createServer } from "node:http";
import path from "node:path";
import next from "next";
import { methodNotAllowed, ROUTE_METHODS } from "../lib/http/method-not-allowed.mjs";
import { nodeRouteFor } from "../lib/http/node-routes.mjs";

const EXIT_CODES = { SIGINT: 130, SIGTERM: 143 };

/**
 * Serves the production build on PORT: Next.js's request handler, behind the routes that register to be answered
 * straight from Node (the MCP gateway). Stops on SIGINT or SIGTERM after the requests in flight, as `next start`
 * does. `npm start` runs it after migrating and building.
 */
const port = Number(process.env.PORT || 3000);
const app = next({ dev: false, dir: path.resolve(import.meta.dirname, ".."), port });
const handle = app.getRequestHandler();
await app.prepare();
const server = createServer((req, res) => {
  if (!ROUTE_METHODS.includes(req.method ?? "")) {
    void refuseMethod(req, res);
    return;
  }
  if (nodeRouteFor(req.method, req.url)?.(req, res)) return;
  void handle(req, res);
});

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

let stopping = false;
/** @param {keyof typeof EXIT_CODES} signal */
function stop(signal) {
  if (stopping) return;
  stopping = true;
  server.close(() => {
    void app.close().finally(() => process.exit(EXIT_CODES[signal]));
  });
  // Idle keep-alive connections would hold the close open until they time out.
  server.closeIdleConnections();
}
process.on("SIGINT", () => stop("SIGINT"));
process.on("SIGTERM", () => stop("SIGTERM"));
