/**
 * One handler for every method a route can answer, for routes whose answer decides by method itself (a metadata
 * document's 405, a JSON 404): spread into the route's exports, so Next.js never answers one of them with its own.
 */
export function everyMethod<H>(handler: H) {
  return {
    DELETE: handler,
    GET: handler,
    HEAD: handler,
    OPTIONS: handler,
    PATCH: handler,
    POST: handler,
    PUT: handler,
  };
}
