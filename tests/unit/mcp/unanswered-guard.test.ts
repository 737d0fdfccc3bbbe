import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { createParser, type EventSourceMessage } from "eventsource-parser";
import { describe, expect, it } from "vitest";
import { guardUnanswered, isStreamEndedError, requestIdsOf } from "@/lib/mcp/client/unanswered-guard";

const ANSWER = 'data: {"jsonrpc":"2.0","id":7,"result":{}}\n\n';
const PROGRESS = 'data: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}\n\n';

/** A stream of these chunks, failing after them when `failure` is given. */
function streamOf(chunks: string[], failure?: Error): ReadableStream<Uint8Array> {
  let index = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[index++];
      if (chunk !== undefined) controller.enqueue(new TextEncoder().encode(chunk));
      else if (failure) controller.error(failure);
      else controller.close();
    },
  });
}

/** The events a client reads from the guarded stream. */
async function eventsOf(stream: ReadableStream<Uint8Array>): Promise<EventSourceMessage[]> {
  const events: EventSourceMessage[] = [];
  const parser = createParser({
    onEvent(event) {
      if (event.data) events.push(event);
    },
  });
  const decoder = new TextDecoder();
  const source = stream.getReader();
  for (;;) {
    const { value, done } = await source.read();
    if (done) break;
    parser.feed(decoder.decode(value, { stream: true }));
  }
  return events;
}

describe("an answer's stream that ends early", () => {
  it("finds the requests of a POST body, and only those", () => {
    expect(
      requestIdsOf(
        JSON.stringify([
          { jsonrpc: "2.0", id: 1, method: "tools/call" },
          { jsonrpc: "2.0", method: "notifications/cancelled" },
          { jsonrpc: "2.0", id: "a", result: {} },
        ]),
      ),
    ).toEqual([1]);
    expect(requestIdsOf("not json")).toEqual([]);
  });

  it("is passed on unchanged when it answers", async () => {
    const events = await eventsOf(guardUnanswered(streamOf([PROGRESS, ANSWER]), [7]));
    expect(events.map((event) => JSON.parse(event.data as string).id)).toEqual([undefined, 7]);
  });

  it.each([
    ["ends cleanly", [PROGRESS], undefined],
    ["ends in the middle of an event", [PROGRESS, 'data: {"jsonrpc":"2.0","id":7,"res'], undefined],
    ["breaks off", [PROGRESS], new Error("other side closed")],
  ])(
    "answers the request with an error the client fails the call with when it %s",
    async (_case, chunks, failure) => {
      const events = await eventsOf(guardUnanswered(streamOf(chunks, failure), [7]));
      const last = JSON.parse(events.at(-1)?.data as string) as {
        id: number;
        error: { code: number; message: string; data: unknown };
      };
      expect(last.id).toBe(7);
      expect(last.error.code).toBe(ErrorCode.ConnectionClosed);
      // As the SDK's client turns it into an error.
      expect(isStreamEndedError(new McpError(last.error.code, last.error.message, last.error.data))).toBe(
        true,
      );
    },
  );

  it("is left to the client to resume when the server gave an event id", async () => {
    const events = await eventsOf(guardUnanswered(streamOf(["id: 1\ndata: \n\n", PROGRESS]), [7]));
    expect(events.every((event) => !event.data?.includes('"id":7'))).toBe(true);
  });

  it("never takes a server's own error with the same code for one it made up", () => {
    expect(isStreamEndedError(new McpError(ErrorCode.ConnectionClosed, "Connection closed"))).toBe(false);
    expect(
      isStreamEndedError(
        new McpError(ErrorCode.ConnectionClosed, "x", { "switchboard/streamEnded": "a guess" }),
      ),
    ).toBe(false);
  });
});
