import { InitializeRequestSchema } from "@modelcontextprotocol/core";
import {
  type InitializeRequest,
  isLegacyRequest,
  LATEST_PROTOCOL_VERSION,
  type Server,
  SUPPORTED_PROTOCOL_VERSIONS,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/server";
import type { Database } from "@/db/client";
import { getEnv } from "@/lib/env";
import { getMcpClient } from "@/lib/mcp/client/shared-client";
import { chargeCaller, type GatewayCaller } from "./caller";
import { appErrorRefusal, authenticateCaller } from "./caller-auth";
import type { McpEndpoint } from "./endpoint";
import { readGatewayMessages } from "./gateway-body";
import { refuseForeignHost } from "./host-check";
import { jsonRpcError } from "./json-rpc-error";
import { loneAnswer, loneModernAnswer } from "./lone-answer";
import { requestServer } from "./request-server";
import { serveModern } from "./serve-modern";
import { relayForRequest } from "./sessions/request-relay";
import { serveInSession } from "./sessions/serve-in-session";
import { serveSessionStream } from "./sessions/serve-session-stream";
import { sessionCallAnswer, takesNoQuestions } from "./sessions/session-call";
import {
  endSession,
  findSession,
  type GatewaySession,
  openSession,
  PARKING_REVISION,
} from "./sessions/session-store";
import { sessionTasks } from "./sessions/session-tasks";
import { serveSubscriptions } from "./sessions/subscriptions";
import { loneTaskCall, taskCallAnswer } from "./sessions/task-call-answer";
import { loneToolsCall } from "./tools-call-answer";

/**
 * What an endpoint serves the caller (in its 2025 session, if it has one), or the answer to give instead (an
 * integration it may not use: 404).
 */
export type OpenEndpoint = (ctx: GatewayCaller, session?: GatewaySession) => Promise<McpEndpoint | Response>;

/**
 * The one gate of both MCP endpoints, for POST, GET and DELETE: the Host check, then the caller (an API key, or an
 * OAuth access token issued for this endpoint) and its rate limit, or the refusal to send (401 and 403 with the
 * challenges of the MCP authorization specification). Every later step receives the caller it returns.
 */
async function authorize(
  db: Database,
  request: Request,
  endpoint: string,
): Promise<GatewayCaller | Response> {
  const refused = refuseForeignHost(request.headers, getEnv().MCP_ALLOWED_HOSTS);
  if (refused) return jsonRpcError(403, -32000, refused);
  return authenticateCaller(db, request, endpoint);
}

/** The caller's session named by the request's Mcp-Session-Id on this endpoint, or the answer the spec asks for. */
async function sessionOf(
  db: Database,
  request: Request,
  ctx: GatewayCaller,
  endpoint: string,
): Promise<GatewaySession | Response> {
  const id = request.headers.get("mcp-session-id");
  if (!id)
    return jsonRpcError(400, -32000, "Bad Request: send the Mcp-Session-Id header the server gave you.");
  const found = await findSession(db, ctx, endpoint, id);
  // A 2026-07-28 call's own session (parked-calls.ts) is no client's session.
  const session = found?.protocolVersion === PARKING_REVISION ? undefined : found;
  // 404 tells the client to initialize again, as the transport specification says.
  return (
    session ?? jsonRpcError(404, -32001, "Session not found: it ended or expired. Initialize a new one.")
  );
}

/** The initialize request alone in the body, if that is what it is. */
function initializeRequest(parsedBody: unknown) {
  const parsed = InitializeRequestSchema.safeParse(
    parsedBody !== null && typeof parsedBody === "object" && "method" in parsedBody
      ? { method: parsedBody.method, params: (parsedBody as { params?: unknown }).params }
      : undefined,
  );
  return parsed.success ? parsed.data : undefined;
}

/** The initialize answer with the new session's id, so the client can keep it. */
async function withNewSession(
  db: Database,
  response: Response,
  ctx: GatewayCaller,
  endpoint: string,
  initialize: InitializeRequest,
): Promise<Response> {
  if (response.status !== 200) return response;
  const requested = initialize.params.protocolVersion;
  const session = await openSession(db, ctx, {
    endpoint,
    protocolVersion: SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION,
    clientCapabilities: initialize.params.capabilities,
  });
  const headers = new Headers(response.headers);
  headers.set("Mcp-Session-Id", session.id);
  return new Response(response.body, { status: response.status, headers });
}

/** A 2025-11-25 (or older) server for one request: in a session, questions and progress reach its client. */
function legacyServer(
  db: Database,
  ctx: GatewayCaller,
  endpointName: string,
  endpoint: McpEndpoint,
  session?: GatewaySession,
): Server {
  const { server } = requestServer(endpoint, {
    runCall: (call, _target, start) =>
      start({ signal: call.mcpReq.signal, relay: relayForRequest(session, call) }),
    sessionTasks: sessionTasks(db, ctx, endpointName),
  });
  serveSubscriptions(server, db, ctx, session, endpoint.resourceTarget);
  return server;
}

/**
 * One POST to an MCP endpoint with an API key or an OAuth access token, over Streamable HTTP, whichever revision
 * the client speaks: the gate (the Host check, the caller and its rate limit; each message of a batch counts), the
 * body read and checked, then the one choice of how to serve it, as the specification says (per request, from the
 * body):
 * - a 2026-07-28 request (its `_meta` names the revision): stateless, on the SDK's handler for that revision, but
 *   a lone tools/call that can only end in one JSON result, answered without it (as it would answer);
 * - a request of a 2025-11-25 session (Mcp-Session-Id), kept in the database so any instance continues it; a lone
 *   tools/call whose client takes no questions answered without an SDK server (sessions/session-call.ts);
 * - a lone tools/list or tools/call without a session, answered without an SDK server (as it would answer);
 * - anything else without a session, on a server for this request alone, with a JSON answer; an initialize opens
 *   a session.
 */
export async function serveMcpPost(
  db: Database,
  request: Request,
  endpointName: string,
  open: OpenEndpoint,
): Promise<Response> {
  const ctx = await authorize(db, request, endpointName);
  if (ctx instanceof Response) return ctx;
  // The body is read here (bounded in size and depth, without NUL) so that a batch is counted before it runs.
  const read = await readGatewayMessages(request);
  if (read instanceof Response) return read;
  // Clients of 2025-03-26 may send batches, so a batch is served, not refused: each of its messages counts as
  // one request (the first was counted above), and none runs past the limit.
  if (read.messages > 1) {
    try {
      await chargeCaller(db, ctx, read.messages - 1);
    } catch (error) {
      return appErrorRefusal(error, " Each message of a JSON-RPC batch counts as one request.");
    }
  }
  const body = read.parsedBody;
  // A body that is not JSON has no revision to claim: the 2025 transport refuses it with its own answer.
  if (body !== undefined && !(await isLegacyRequest(request, body))) {
    const endpoint = await open(ctx);
    if (endpoint instanceof Response) return endpoint;
    return (
      (await loneModernAnswer(request, body, endpoint)) ??
      serveModern(db, request, ctx, endpointName, endpoint, body)
    );
  }
  if (request.headers.has("mcp-session-id")) {
    const session = await sessionOf(db, request, ctx, endpointName);
    if (session instanceof Response) return session;
    const taskCall = loneTaskCall(body);
    if (taskCall) {
      const endpoint = await open(ctx, session);
      if (endpoint instanceof Response) return endpoint;
      return startTask(db, ctx, endpointName, endpoint, taskCall, session.clientCapabilities);
    }
    const call = takesNoQuestions(session) ? loneToolsCall(request.headers, body) : undefined;
    if (call) {
      const endpoint = await open(ctx, session);
      if (endpoint instanceof Response) return endpoint;
      return sessionCallAnswer(db, session, call, endpoint);
    }
    return serveInSession(db, request, session, body, async () => {
      const endpoint = await open(ctx, session);
      return endpoint instanceof Response ? endpoint : legacyServer(db, ctx, endpointName, endpoint, session);
    });
  }
  const endpoint = await open(ctx);
  if (endpoint instanceof Response) return endpoint;
  const lone = await loneAnswer(request, body, endpoint);
  if (lone) return lone;
  const taskCall = loneTaskCall(body);
  if (taskCall) return startTask(db, ctx, endpointName, endpoint, taskCall);
  const initialize = initializeRequest(body);
  const response = await serveStateless(request, legacyServer(db, ctx, endpointName, endpoint), body);
  return initialize ? withNewSession(db, response, ctx, endpointName, initialize) : response;
}

/** A task-augmented tools/call of a 2025 client, started as the key's task on this endpoint (session-tasks.ts). */
function startTask(
  db: Database,
  ctx: GatewayCaller,
  endpointName: string,
  endpoint: McpEndpoint,
  taskCall: NonNullable<ReturnType<typeof loneTaskCall>>,
  clientCapabilities?: Record<string, unknown>,
): Promise<Response> {
  return taskCallAnswer(taskCall.id, () =>
    sessionTasks(db, ctx, endpointName).start(
      (call) => endpoint.callTool(taskCall.params, call),
      clientCapabilities,
    ),
  );
}

/** Messages without a session, on a server for this request alone, answered as JSON. */
async function serveStateless(request: Request, server: Server, parsedBody: unknown): Promise<Response> {
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  // A client that hangs up cancels its calls: closing the server aborts every handler's signal. The transport
  // then never answers, so the hang-up ends the request itself (with nginx's "client closed request").
  let hangUp = () => {};
  const hungUp = new Promise<Response>((resolve) => {
    hangUp = () => {
      void server.close();
      resolve(new Response(null, { status: 499 }));
    };
  });
  request.signal.addEventListener("abort", hangUp, { once: true });
  try {
    return await Promise.race([
      transport.handleRequest(request, parsedBody === undefined ? undefined : { parsedBody }),
      hungUp,
    ]);
  } finally {
    request.signal.removeEventListener("abort", hangUp);
    // With JSON responses the answer is complete here, so the per-request server can go.
    void server.close();
  }
}

/** A session's GET: its stream of server messages, or a lost stream resumed (Last-Event-ID). */
export async function serveMcpGet(db: Database, request: Request, endpoint: string): Promise<Response> {
  const ctx = await authorize(db, request, endpoint);
  if (ctx instanceof Response) return ctx;
  const session = await sessionOf(db, request, ctx, endpoint);
  if (session instanceof Response) return session;
  return serveSessionStream(db, request, session);
}

/** A session's DELETE: the client is done with it. */
export async function serveMcpDelete(db: Database, request: Request, endpoint: string): Promise<Response> {
  const ctx = await authorize(db, request, endpoint);
  if (ctx instanceof Response) return ctx;
  const session = await sessionOf(db, request, ctx, endpoint);
  if (session instanceof Response) return session;
  await endSession(db, session);
  // The upstream sessions it had on this instance end with it (others close when idle).
  await getMcpClient().pool.closeSessionsOf(session.id);
  return new Response(null, { status: 200 });
}
