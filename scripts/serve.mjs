// @ts-check
// JavaScript, not TypeScript: the serving process runs on Node without a loader, which would cost it ~80 MB.
import { createServer } from "node:http";
import path from "node:path";
import next from "next";
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
  if (nodeRouteFor(req.method, req.url)?.(req, res)) return;
  void handle(req, res);
});
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
