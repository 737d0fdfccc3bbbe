import { randomUUID } from "node:crypto";
import {
  type CallToolRequest,
  isJSONRPCNotification,
  type JSONRPCMessage,
  type RequestId,
  type ServerNotification,
} from "@modelcontextprotocol/server";
import type { Database } from "@/db/client";
import { clientQuestions } from "../client-questions";
import type { CallRelay, McpEndpoint } from "../endpoint";
import { jsonRpcAnswer } from "../lone-request";
import { toolsCallMessage } from "../tools-call-answer";
import { atOrAbove } from "./request-relay";
import { sessionEventStore } from "./session-events";
import { openExchange } from "./session-inbox";
import type { GatewaySession } from "./session-store";

// A call still running after this long answers as an event stream, which a client that loses it can resume.
const STREAM_AFTER_MS = 200;
// What the SDK's transport writes on a quiet stream, and as often.
const KEEP_ALIVE_MS = 15_000;

/** Whether the session's client can be asked nothing (no elicitation, sampling or roots): its calls need no inbox. */
export function takesNoQuestions(session: GatewaySession): boolean {
  const questions = clientQuestions(session.clientCapabilities, () => Promise.reject(new Error("unused")));
  return !questions.elicit && !questions.createMessage && !questions.listRoots;
}

/**
 * A POST's event stream written as the SDK's transport writes it (a priming event, then `event: message` with the
 * event's id), its events kept by the session's event store: in memory while the client holds the stream, in the
 * database from the moment it loses it, so the client resumes it (GET with Last-Event-ID) on any instance.
 */
function callEventStream(db: Database, session: GatewaySession) {
  const events = sessionEventStore(db, session.id);
  const streamId = randomUUID();
  const encoder = new TextEncoder();
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  let closed = false;
  let keepAlive: NodeJS.Timeout | undefined;
  const enqueue = (text: string) => {
    if (!closed) controller?.enqueue(encoder.encode(text));
  };
  const body = new ReadableStream<Uint8Array>({
    start(opened) {
      controller = opened;
    },
    cancel() {
      closed = true;
      clearInterval(keepAlive);
      void events.lost();
    },
  });
  return {
    async open(): Promise<Response> {
      enqueue(`id: ${await events.store.storeEvent(streamId, {} as JSONRPCMessage)}\ndata: \n\n`);
      keepAlive = setInterval(() => enqueue(": keepalive\n\n"), KEEP_ALIVE_MS);
      return new Response(body, {
        status: 200,
        headers: {
          "Content-Type": "text/event-stream",
          "Cache-Control": "no-cache, no-transform",
          Connection: "keep-alive",
          "X-Accel-Buffering": "no",
        },
      });
    },
    async write(message: object): Promise<void> {
      const id = await events.store.storeEvent(streamId, message as JSONRPCMessage);
      enqueue(`event: message\nid: ${id}\ndata: ${JSON.stringify(message)}\n\n`);
    },
    end() {
      clearInterval(keepAlive);
      if (closed) return;
      closed = true;
      controller?.close();
    },
  };
}

/**
 * A lone tools/call in a 2025-11-25 session whose client takes no questions, answered without an SDK server: as
 * JSON when the result comes first, as the SDK's transport answers without an event store; or as an event stream
 * once the upstream server tells the client something (progress it asked for, a log message at its level) or the
 * call outlasts STREAM_AFTER_MS, so that a long call can be resumed on any instance. A cancellation of the call
 * reaches it from any instance; a client that hangs up does not cancel it (as in serveInSession).
 */
export async function sessionCallAnswer(
  db: Database,
  session: GatewaySession,
  call: { id: RequestId; params: CallToolRequest["params"] },
  endpoint: McpEndpoint,
): Promise<Response> {
  const aborter = new AbortController();
  const exchange = await openExchange(db, session.id, [call.id], (message) => {
    if (isJSONRPCNotification(message) && message.method === "notifications/cancelled")
      aborter.abort(message.params?.reason ?? "The client cancelled the call.");
  });
  let stream: ReturnType<typeof callEventStream> | undefined;
  let opened: Promise<Response> | undefined;
  let streamed = () => {};
  const streaming = new Promise<"stream">((resolve) => {
    streamed = () => resolve("stream");
  });
  const openStream = () => {
    stream ??= callEventStream(db, session);
    opened ??= stream.open();
    streamed();
    return opened;
  };
  // In order, each after the stream's opening: the client reads them before the call's answer.
  let sending: Promise<unknown> = Promise.resolve();
  const notify = (notification: ServerNotification) => {
    const ready = openStream();
    sending = sending.then(() => ready.then(() => stream?.write({ jsonrpc: "2.0", ...notification })));
  };
  const progressToken = call.params._meta?.progressToken;
  const relay: CallRelay = {
    sent: () => sending.then(() => undefined),
    progress:
      progressToken === undefined
        ? undefined
        : (progress) => notify({ method: "notifications/progress", params: { ...progress, progressToken } }),
    log: (params) => {
      if (atOrAbove(params.level, session.logLevel)) notify({ method: "notifications/message", params });
    },
  };
  const answer = toolsCallMessage(call.id, () =>
    endpoint.callTool(call.params, { signal: aborter.signal, relay }),
  );
  let timer: NodeJS.Timeout | undefined;
  const slow = new Promise<"stream">((resolve) => {
    timer = setTimeout(() => resolve("stream"), STREAM_AFTER_MS);
  });
  const first = await Promise.race([answer.then(() => "answer" as const), streaming, slow]);
  clearTimeout(timer);
  // A cancelled call gets no answer, as the SDK's server sends none: its stream just ends.
  if (first === "answer" && !stream && !aborter.signal.aborted) {
    exchange.close();
    return jsonRpcAnswer(JSON.stringify(await answer));
  }
  const response = await openStream();
  void answer
    .then(async (message) => {
      await sending;
      if (!aborter.signal.aborted) await stream?.write(message);
    })
    .finally(() => {
      exchange.close();
      stream?.end();
    });
  return response;
}
