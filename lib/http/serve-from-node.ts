import type { IncomingMessage, ServerResponse } from "node:http";
import { logger } from "@/lib/logger";
import { nodeRequestBody } from "./node-request-body";
import { registerNodeRoute } from "./node-routes.mjs";
import { securityHeaders } from "./security-headers";

// A route's params: none, or its last segment's.
type RouteHandler<P = Record<string, string>> = (
  request: Request,
  context: { params: Promise<P> },
) => Promise<Response>;

const BODILESS_METHODS = new Set(["GET", "HEAD"]);
const fixedHeaders = securityHeaders(false).map(({ key, value }) => [key, value] as const);

/** The request as the platform's Request; its body is read only if the handler reads it. */
function toRequest(req: IncomingMessage, signal: AbortSignal, body?: ReadableStream<Uint8Array>): Request {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i] as string, raw[i + 1] as string);
  const method = req.method ?? "GET";
  return new Request(new URL(req.url ?? "/", `http://${req.headers.host ?? "localhost"}`), {
    method,
    headers,
    signal,
    ...(body ? { body, duplex: "half" } : {}),
  } as RequestInit);
}

async function answer(
  req: IncomingMessage,
  res: ServerResponse,
  handler: RouteHandler,
  params: Record<string, string>,
): Promise<void> {
  // A client that hangs up aborts the request's signal, as Next.js does for its route handlers.
  const hangUp = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) hangUp.abort();
  });
  const body = BODILESS_METHODS.has(req.method ?? "GET") ? undefined : nodeRequestBody(req);
  // What the handler did not read (a body refused as too large) is dropped, so the connection can serve the next.
  if (body) res.once("finish", body.discardUnread);
  let response: Response;
  try {
    response = await handler(toRequest(req, hangUp.signal, body?.stream), {
      params: Promise.resolve(params),
    });
  } catch (error) {
    // The handlers map their own errors; only a request that cannot be read as one (a bad Host) gets here.
    logger.warn("unreadable request", { method: req.method, err: error });
    response = Response.json(
      { error: { code: "bad_request", message: "The request could not be read." } },
      { status: 400 },
    );
  }
  if (res.destroyed) return;
  for (const [key, value] of fixedHeaders) res.setHeader(key, value);
  response.headers.forEach((value, key) => {
    res.appendHeader(key, value);
  });
  res.statusCode = response.status;
  if (!response.body) res.end();
  else if (response.headers.get("content-type")?.startsWith("text/event-stream"))
    await writeEvents(response.body, res);
  else await writeBody(response.body, res);
}

function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.once("drain", done);
    res.once("close", done);
  });
}

/** Sends a body as it is read (a 10,000-tool listing is 1.5 MB), waiting while the client is slower. */
async function writeBody(body: ReadableStream<Uint8Array>, res: ServerResponse): Promise<void> {
  const reader = body.getReader();
  const hungUp = () => void reader.cancel().catch(() => {});
  res.once("close", hungUp);
  try {
    // Each chunk is written once the next is known, so a body of one chunk (most answers) goes out with a
    // Content-Length in one write.
    let held: Uint8Array | undefined;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (held && !res.write(held)) await drainedOrClosed(res);
      if (res.destroyed) return;
      held = value;
    }
    res.end(held);
  } catch {
    // The body failed or the client left midway: nothing more can be said on this response.
    res.destroy();
  } finally {
    res.off("close", hungUp);
  }
}

/** Sends an event stream as it comes: each event must reach the client when it is written, not with the next. */
async function writeEvents(body: ReadableStream<Uint8Array>, res: ServerResponse): Promise<void> {
  const reader = body.getReader();
  const hungUp = () => void reader.cancel().catch(() => {});
  res.once("close", hungUp);
  res.flushHeaders();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || res.destroyed) break;
      if (!res.write(value)) await drainedOrClosed(res);
    }
    res.end();
  } catch {
    res.destroy();
  } finally {
    res.off("close", hungUp);
  }
}

/**
 * Serves a route handler from Node's HTTP server once its module is loaded, skipping Next.js's router and its
 * conversions (about a millisecond of CPU a request, which matters on the MCP gateway's hot path). The handler
 * still runs in Next.js's bundle, with the same module state, and answers with the same headers. `when` can
 * leave some requests to Next.js. A path whose last segment is a parameter (`/api/mcp/integrations/[slug]`) gives
 * the handler that segment decoded, as Next.js would.
 */
export function serveFromNode<P extends Record<string, string>>(
  method: string,
  path: string,
  handler: RouteHandler<P>,
  options: { when?: (req: IncomingMessage) => boolean } = {},
): void {
  const param = path.match(/\/\[([^/\]]+)\]$/)?.[1];
  registerNodeRoute(method, path, (req, res) => {
    if (options.when && !options.when(req)) return false;
    const params = param ? lastSegmentAs(param, req.url ?? "") : {};
    // A segment that does not decode is Next.js's to refuse.
    if (!params) return false;
    void answer(req, res, handler as RouteHandler, params);
    return true;
  });
}

function lastSegmentAs(name: string, url: string): Record<string, string> | undefined {
  const query = url.indexOf("?");
  const path = query === -1 ? url : url.slice(0, query);
  try {
    return { [name]: decodeURIComponent(path.slice(path.lastIndexOf("/") + 1)) };
  } catch {
    return undefined;
  }
}

/** For routes that also accept a signed-in user: only requests with an API key skip Next.js, whose runtime reads sessions. */
export const withAuthorizationHeader = (req: IncomingMessage) => Boolean(req.headers.authorization);
