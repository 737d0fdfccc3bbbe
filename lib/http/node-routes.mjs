// @ts-check
// JavaScript, not TypeScript: scripts/serve.mjs imports it, and that server runs on Node without a loader.
import { processWide } from "../process-wide.mjs";

/**
 * Serves the request and answers true, or answers false and leaves it to Next.js.
 * @typedef {(req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => boolean} NodeRoute
 */

// One per process: routes register from Next.js's server bundles, and the server that consults them loads this
// module on its own.
/** @returns {Map<string, NodeRoute>} */
function registry() {
  return processWide("nodeRoutes", () => /** @type {Map<string, NodeRoute>} */ (new Map()));
}

/**
 * A route answered straight from Node's HTTP server, ahead of Next.js's router. Its last segment may be a parameter
 * (`/api/mcp/integrations/[slug]`), which the route reads from the request's URL.
 * @param {string} method
 * @param {string} path
 * @param {NodeRoute} route
 */
export function registerNodeRoute(method, path, route) {
  registry().set(`${method} ${path.replace(/\/\[[^/\]]+\]$/, "/[]")}`, route);
}

/**
 * The Node route for a request line, if its route module has registered one (it does once Next.js loads it).
 * @param {string | undefined} method
 * @param {string | undefined} url
 * @returns {NodeRoute | undefined}
 */
export function nodeRouteFor(method, url) {
  if (!method || !url) return undefined;
  const query = url.indexOf("?");
  const path = query === -1 ? url : url.slice(0, query);
  const routes = registry();
  const exact = routes.get(`${method} ${path}`);
  if (exact) return exact;
  const slash = path.lastIndexOf("/");
  if (slash <= 0 || slash === path.length - 1) return undefined;
  return routes.get(`${method} ${path.slice(0, slash)}/[]`);
}
