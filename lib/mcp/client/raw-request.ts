import {
  type Client,
  type JSONRPCMessage,
  ProtocolError,
  type Transport,
} from "@modelcontextprotocol/client";

/** Answers awaited on a transport, by the id of the request sent on it here. */
const awaited = new WeakMap<Transport, Map<string, (message: JSONRPCMessage) => void>>();
let sent = 0;

/** Takes the answers to requests sent here off the transport before the client sees them (it knows no such id). */
function answersOn(transport: Transport) {
  let waiting = awaited.get(transport);
  if (waiting) return waiting;
  const mine = new Map<string, (message: JSONRPCMessage) => void>();
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const id = "id" in message && !("method" in message) ? message.id : undefined;
    const waiter = typeof id === "string" ? mine.get(id) : undefined;
    if (waiter) waiter(message);
    else deliver?.(message, extra);
  };
  awaited.set(transport, mine);
  waiting = mine;
  return waiting;
}

/**
 * Sends one request on the client's own transport (its headers, credentials and network guard) and hands back the
 * server's result as it came, unread by the client: the v2 client's 2026 codec refuses any result whose
 * `resultType` it does not know (a task's, say) before anything could read it. A JSON-RPC error is thrown as a
 * `ProtocolError`, as the client would.
 */
export function rawRequest(
  client: Client,
  method: string,
  params: Record<string, unknown>,
  signal: AbortSignal,
): Promise<unknown> {
  const transport = client.transport;
  if (!transport) return Promise.reject(new Error("Not connected"));
  const waiting = answersOn(transport);
  const id = `switchboard-${++sent}`;
  return new Promise((resolve, reject) => {
    const done = () => {
      waiting.delete(id);
      signal.removeEventListener("abort", aborted);
    };
    const aborted = () => {
      done();
      reject(signal.reason);
    };
    if (signal.aborted) return aborted();
    signal.addEventListener("abort", aborted, { once: true });
    waiting.set(id, (message) => {
      done();
      if ("error" in message)
        reject(new ProtocolError(message.error.code, message.error.message, message.error.data));
      else if ("result" in message) resolve(message.result);
    });
    transport
      .send({ jsonrpc: "2.0", id, method, params }, { requestSignal: signal })
      .catch((error: unknown) => {
        done();
        reject(error);
      });
  });
}
