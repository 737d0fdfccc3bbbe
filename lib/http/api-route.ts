import { randomUUID } from "node:crypto";
import { context as otelContext, SpanStatusCode, trace } from "@opentelemetry/api";
import { type Database, getDb } from "@/db/client";
import { AppError, toErrorResponse } from "@/lib/errors";
import { logger } from "@/lib/logger";
import { metrics, orgLabelOf } from "@/lib/metrics/metrics";
import { surfaceOf } from "@/lib/metrics/surface";
import { incomingContext, inSpan, SpanKind, tracingOn } from "@/lib/tracing/tracer";
import { runInRequestScope } from "./request-scope";

/** What a handler is given besides the request: the route's params, the request's id, and the database. */
export interface RouteContext<P> {
  params: Promise<P>;
  requestId: string;
  db: Database;
}

type Handler<P> = (request: Request, context: RouteContext<P>) => Promise<Response>;

/** The handler's context; the database is opened only when a handler asks for it (health and metrics do not). */
function routeContext<P>(params: Promise<P>, requestId: string): RouteContext<P> {
  return {
    params,
    requestId,
    get db() {
      return getDb();
    },
  };
}

export interface ApiRouteOptions {
  /** Sent with `Cache-Control: no-transform`, so Next.js does not gzip it: for programs, gzip costs more than it saves. */
  uncompressed?: boolean;
}

function withNoTransform(cacheControl: string | null): string {
  if (!cacheControl) return "no-transform";
  return /(^|,)\s*no-transform\s*(,|$)/i.test(cacheControl) ? cacheControl : `${cacheControl}, no-transform`;
}

function countRequest(surface: string, route: string, status: number, durationMs: number, orgId: unknown) {
  const m = metrics();
  if (!m) return;
  const org = orgLabelOf(m, typeof orgId === "string" ? orgId : undefined);
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
  const route = name.slice(name.indexOf(" ") + 1);
  const surface = surfaceOf(name);
  return (request: Request, context: { params: Promise<P> }): Promise<Response> => {
    if (!tracingOn()) return answer(request, context);
    const parent = incomingContext(request.headers);
    const attributes = { "http.request.method": request.method, "http.route": route };
    // A server span of its own unless Next.js's request span is already open.
    const kind =
      trace.getSpan(parent) && parent === otelContext.active() ? SpanKind.INTERNAL : SpanKind.SERVER;
    return inSpan(name, { kind, attributes, parent }, async (span) => {
      const response = await answer(request, context);
      span.setAttribute("http.response.status_code", response.status);
      if (response.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      return response;
    });
  };

  async function answer(request: Request, context: { params: Promise<P> }): Promise<Response> {
    const requestId = request.headers.get("x-request-id") ?? randomUUID();
    const started = performance.now();
    const path = new URL(request.url).pathname;
    let response: Response;
    let failure: Record<string, unknown> = {};
    const scoped: Record<string, unknown> = {};
    try {
      response = await runInRequestScope(scoped, () =>
        handler(request, routeContext(context.params, requestId)),
      );
    } catch (error) {
      response = toErrorResponse(error, { route: name, requestId, method: request.method, path });
      // Client mistakes are logged with what was wrong; server failures were logged with their cause above.
      if (error instanceof AppError) failure = { errorCode: error.code, error: error.message };
    }
    response.headers.set("x-request-id", requestId);
    if (options.uncompressed)
      response.headers.set("cache-control", withNoTransform(response.headers.get("cache-control")));
    countRequest(surface, name, response.status, performance.now() - started, scoped.orgId);
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
  }
}

/**
 * apiRoute for answers read by programs (the REST API, the MCP gateway): sent with `Cache-Control: no-transform`,
 * so Next.js does not gzip them; for programs on fast links gzip costs more than it saves.
 */
export function uncompressedApiRoute<P = Record<string, never>>(name: string, handler: Handler<P>) {
  return apiRoute(name, handler, { uncompressed: true });
}
