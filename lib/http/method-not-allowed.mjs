// @ts-check
// JavaScript, not TypeScript: scripts/serve.mjs answers with it too, and that server runs on Node without a loader.

/** The methods a Next.js route handler can answer; any other (TRACE, TRACK…) never reaches one. */
export const ROUTE_METHODS = ["GET", "HEAD", "OPTIONS", "POST", "PUT", "DELETE", "PATCH"];

/**
 * The one 405 of the app's routes: JSON saying what was refused, and the route's methods in `Allow`, as RFC 9110
 * requires of every 405.
 * @param {string} method
 * @param {string} path
 * @param {readonly string[]} allow
 * @returns {{ status: 405, headers: Record<string, string>, body: string }}
 */
export function methodNotAllowed(method, path, allow) {
  const allowed = allow.join(", ");
  return {
    status: 405,
    headers: { allow: allowed, "content-type": "application/json", "cache-control": "no-store" },
    body: JSON.stringify({
      error: `${method} is not allowed on ${path}; use ${allowed}.`,
      code: "method_not_allowed:request",
    }),
  };
}
