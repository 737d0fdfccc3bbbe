import { JSONRPCMessageSchema } from "@modelcontextprotocol/core";
import {
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type RequestId,
  type Server,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/server";
import type { Database } from "@/db/client";
import { sessionEventStore } from "./session-events";
import { openExchange, sendToSessionRequests } from "./session-inbox";
import { type GatewaySession, setSessionLogLevel } from "./session-store";

// Requests during which the upstream server may speak to the client (progress, questions): answered as a stream.
const ASKING_METHODS = new Set(["tools/call", "prompts/get", "resources/read", "tasks/result"]);

const isResponse = (message: JSONRPCMessage) =>
  isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message);

/** The body's messages, or undefined when it is not all JSON-RPC (the transport then says what is wrong). */
function messagesOf(parsedBody: unknown): JSONRPCMessage[] | undefined {
  const items = Array.isArray(parsedBody) ? parsedBody : [parsedBody];
  const messages: JSONRPCMessage[] = [];
  for (const item of items) {
    const parsed = JSONRPCMessageSchema.safeParse(item);
    if (!parsed.success) return undefined;
    messages.push(parsed.data);
  }
  return messages;
}

/**
 * One POST of a session. Answers and cancellations go to the requests they concern, on whichever instance runs
 * them. Requests run here, on a server made for this POST: a tool call, a prompt or a read answers as an SSE stream
 * whose events are kept, so it can tell the client its progress and ask it questions, and a client whose stream
 * broke picks it up again (GET with Last-Event-ID) on any instance. A client hanging up does not cancel its calls.
 */
export async function serveInSession(
  db: Database,
  request: Request,
  session: GatewaySession,
  parsedBody: unknown,
  open: (parsedBody: unknown) => Promise<Server | Response>,
): Promise<Response> {
  const messages = messagesOf(parsedBody);
  const forServer = messages?.filter((message) => !isResponse(message) && !isCancellation(message));
  for (const message of messages ?? [])
    if (!forServer?.includes(message)) await sendToSessionRequests(db, session.id, message);
  const requests = forServer?.filter(isJSONRPCRequest) ?? [];
  if (messages && requests.length === 0) return new Response(null, { status: 202 });

  const body = messages ? (Array.isArray(parsedBody) ? forServer : forServer?.[0]) : parsedBody;
  const server = await open(body);
  if (server instanceof Response) return server;
  server.setRequestHandler("logging/setLevel", async (setLevel) => {
    await setSessionLogLevel(db, session, setLevel.params.level);
    return {};
  });

  const streaming = requests.some((message) => ASKING_METHODS.has(message.method));
  const events = streaming ? sessionEventStore(db, session.id) : undefined;
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: !streaming,
    ...(events ? { eventStore: events.store } : {}),
  });
  await server.connect(transport);
  const unanswered = new Set<RequestId>(requests.map((message) => message.id));
  // Messages on their way out: the server is closed only after they are written.
  const sending = new Set<Promise<void>>();
  const exchange = await openExchange(
    db,
    session.id,
    requests.map((message) => message.id),
    (message) => {
      transport.onmessage?.(message);
      // A cancelled request gets no answer: once none is left to answer, the server goes.
      if (isCancellation(message)) {
        unanswered.delete((message as unknown as { params: { requestId: RequestId } }).params.requestId);
        // After what the cancellation sets off (the call's questions to the client withdrawn) is on its way.
        if (unanswered.size === 0) setImmediate(finish);
      }
    },
  );
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    exchange.close();
    void Promise.allSettled(sending).then(() => server.close());
  };
  const send = transport.send.bind(transport);
  // Requests to the client get ids unique across instances, so its answers find their way back here.
  transport.send = async (message, options) => {
    const outgoing = isJSONRPCRequest(message)
      ? { ...message, id: exchange.outgoingId(message.id) }
      : withdrawnAs(message, exchange.sentAs);
    const sent = send(outgoing, options);
    sending.add(sent);
    try {
      await sent;
    } finally {
      sending.delete(sent);
    }
    if (isResponse(message)) {
      unanswered.delete((message as { id: string | number }).id);
      if (streaming && unanswered.size === 0) finish();
    }
  };
  try {
    const response = await transport.handleRequest(request, { parsedBody: body });
    if (!response.headers.get("content-type")?.includes("text/event-stream") || !response.body) {
      finish();
      return response;
    }
    return withLossNoticed(response, response.body, () => {
      if (!finished) void events?.lost();
    });
  } catch (error) {
    finish();
    throw error;
  }
}

/** A cancellation of a request sent to the client (the upstream server withdrew its question), under its id. */
function withdrawnAs(
  message: JSONRPCMessage,
  sentAs: (original: RequestId) => string | undefined,
): JSONRPCMessage {
  if (!isJSONRPCNotification(message) || message.method !== "notifications/cancelled") return message;
  const requestId = message.params?.requestId as RequestId | undefined;
  const id = requestId === undefined ? undefined : sentAs(requestId);
  return id === undefined ? message : { ...message, params: { ...message.params, requestId: id } };
}

/** The response with its event stream passed through, telling `onLost` if the client leaves before its end. */
function withLossNoticed(response: Response, body: ReadableStream<Uint8Array>, onLost: () => void): Response {
  const reader = body.getReader();
  const passed = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel(reason) {
      onLost();
      return reader.cancel(reason);
    },
  });
  return new Response(passed, { status: response.status, headers: response.headers });
}

function isCancellation(message: JSONRPCMessage): boolean {
  return isJSONRPCNotification(message) && message.method === "notifications/cancelled";
}
