import { randomUUID } from "node:crypto";
import { AppError, toErrorResponse } from "@/lib/errors";
import { logger } from "@/lib/logger";
import { metrics, orgLabelOf } from "@/lib/metrics/metrics";
import { surfaceOf } from "@/lib/metrics/surface";
import { runInRequestScope } from "./request-scope";

type Handler<P> = (request: Request, context: { params: Promise<P>; requestId: string }) => Promise<Response>;

export interface ApiRouteOptions {
  /** Sent with `Cache-Control: no-transform`, so Next.js does not gzip it: for programs, gzip costs more than it saves. */
  uncompressed?: boolean;
}

function withNoTransform(cacheControl: string | null): string {
  if (!cacheControl) return "no-transform";
  return /(^|,)\s*no-transform\s*(,|$)/i.test(cacheControl) ? cacheControl : `${cacheControl}, no-transform`;
}

function countRequest(route: string, status: number, durationMs: number, orgId: unknown) {
  const m = metrics();
  if (!m) return;
  const org = orgLabelOf(m, typeof orgId === "string" ? orgId : undefined);
  const surface = surfaceOf(route);
  m.httpRequests.inc({ surface, route, status: String(status), ...org });
  m.httpDuration.observe({ surface, route, ...org }, durationMs / 1000);
}

/**
 * Wraps a route handler: one structured log line per request (method, path, status, duration), a request id
 * header, and the one error mapping, so no handler leaks a stack trace or repeats this.
 */
export function apiRoute<P = Record<string, never>>(
  name: string,
  handler: Handler<P>,
  options: ApiRouteOptions = {},
) {
  return async (request: Request, context: { params: Promise<P> }): Promise<Response> => {
    const requestId = request.headers.get("x-request-id") ?? randomUUID();
    const started = performance.now();
    const path = new URL(request.url).pathname;
    let response: Response;
    let failure: Record<string, unknown> = {};
    const scoped: Record<string, unknown> = {};
    try {
      response = await runInRequestScope(scoped, () =>
        handler(request, { params: context.params, requestId }),
      );
    } catch (error) {
      response = toErrorResponse(error, { route: name, requestId, method: request.method, path });
      // Client mistakes are logged with what was wrong; server failures were logged with their cause above.
      if (error instanceof AppError) failure = { errorCode: error.code, error: error.message };
    }
    response.headers.set("x-request-id", requestId);
    if (options.uncompressed)
      response.headers.set("cache-control", withNoTransform(response.headers.get("cache-control")));
    countRequest(name, response.status, performance.now() - started, scoped.orgId);
    logger.info("request", {
      route: name,
      requestId,
      method: request.method,
      path,
      status: response.status,
      durationMs: Math.round(performance.now() - started),
      ...scoped,
      ...failure,
    });
    return response;
  };
}

/**
 * apiRoute for answers read by programs (the REST API, the MCP gateway): sent with `Cache-Control: no-transform`,
 * so Next.js does not gzip them; for programs on fast links gzip costs more than it saves.
 */
export function uncompressedApiRoute<P = Record<string, never>>(name: string, handler: Handler<P>) {
  return apiRoute(name, handler, { uncompressed: true });
}
