import { methodNotAllowed, ROUTE_METHODS } from "./method-not-allowed.mjs";

type RouteMethod = "GET" | "HEAD" | "OPTIONS" | "POST" | "PUT" | "DELETE" | "PATCH";
type Refusal = (request: Request) => Response;

/**
 * Handlers for the methods a route does not answer, to export beside its own: each a JSON 405 with `Allow`
 * (Next.js's own 405 has neither), and OPTIONS a 204 with `Allow`. HEAD goes with GET, as Next.js answers it.
 */
export function otherMethods<const M extends RouteMethod>(
  ...answered: M[]
): Record<Exclude<RouteMethod, M | ("GET" extends M ? "HEAD" : never)>, Refusal> {
  const own = new Set<string>([...answered, "OPTIONS", ...(answered.includes("GET" as M) ? ["HEAD"] : [])]);
  const allow = ROUTE_METHODS.filter((method) => own.has(method));
  const refuse: Refusal = (request) => {
    const { status, headers, body } = methodNotAllowed(request.method, new URL(request.url).pathname, allow);
    return new Response(body, { status, headers });
  };
  const options: Refusal = () => new Response(null, { status: 204, headers: { allow: allow.join(", ") } });
  const handlers = {
    ...Object.fromEntries(
      ROUTE_METHODS.filter((method) => !own.has(method)).map((method) => [method, refuse]),
    ),
    ...(answered.includes("OPTIONS" as M) ? {} : { OPTIONS: options }),
  };
  return handlers as Record<Exclude<RouteMethod, M | ("GET" extends M ? "HEAD" : never)>, Refusal>;
}
