import { PassThrough, Readable } from "node:stream";
import type { Dispatcher } from "undici";
import { describe, expect, it } from "vitest";
import type { GuardedAnswer } from "@/lib/mcp/client/network-guard";
import { singleAnswerFetch, singleAnswerOf } from "@/lib/mcp/client/single-answer-fetch";

const ANSWER = '{"result":{"content":[{"type":"text","text":"Echo: hi"}]},"jsonrpc":"2.0","id":1}';
const PRIMING = "id: 1_0\ndata: \n\n";
const answerEvent = (data = ANSWER) => `event: message\nid: 1_1\ndata: ${data}\n\n`;
const encoder = new TextEncoder();

/** A server's answer body of these chunks, which the test may go on writing to (or fail). */
function source(...chunks: (string | Uint8Array)[]) {
  const body = new PassThrough();
  for (const chunk of chunks) body.write(chunk);
  return {
    body,
    write: (text: string) => body.write(text),
    end: () => body.end(),
    fail: (error: Error) => body.destroy(error),
  };
}
const ended = (...chunks: string[]) => Readable.from(chunks.map((chunk) => Buffer.from(chunk)));

const textOf = (stream: ReadableStream<Uint8Array>) => new Response(stream).text();
const streamOfRead = (read: Awaited<ReturnType<typeof singleAnswerOf>>) =>
  (read as { stream: ReadableStream<Uint8Array> }).stream;

/** Splits text into chunks of n bytes, as a network would. */
const pieces = (text: string, n: number) =>
  Array.from({ length: Math.ceil(text.length / n) }, (_, i) => text.slice(i * n, (i + 1) * n));

describe("an event stream answering a POST of one request", () => {
  it.each([
    ["a priming event, then the answer", [PRIMING, answerEvent()], 1],
    ["the answer alone, without an event type", [`data: ${ANSWER}\n\n`], 1],
    [
      "an error answer",
      [PRIMING, answerEvent('{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"no"}}')],
      2,
    ],
    ["a string id", [`data: {"jsonrpc":"2.0","id":"a","result":{}}\n\n`], "a"],
    ["lines ended by CRLF", [`${PRIMING}${answerEvent()}`.replaceAll("\n", "\r\n")], 1],
    [
      "a CRLF split between chunks",
      [`${PRIMING}data: {"jsonrpc":"2.0",\r`, '\ndata: "id":1,"result":{}}\r\n\r\n'],
      1,
    ],
    ["three-byte pieces", pieces(`${PRIMING}${answerEvent()}`, 3), 1],
    ["comments and a keep-alive", [": keep-alive\n\n", PRIMING, answerEvent(), ": bye\n\n"], 1],
    ["data on two lines", [`data: {"jsonrpc":"2.0",\ndata: "id":1,"result":{}}\n\n`], 1],
    ["anything after the answer, which ends the exchange", [answerEvent(), answerEvent(), "retry: 5\n\n"], 1],
  ])("is its answer as JSON when only skippable events come first: %s", async (_case, chunks, id) => {
    const read = await singleAnswerOf(ended(...chunks), id);
    expect(read).toHaveProperty("answer");
    expect(JSON.parse((read as { answer: string }).answer)).toMatchObject({ jsonrpc: "2.0", id });
  });

  it("keeps a multi-byte character split between chunks", async () => {
    const bytes = encoder.encode(`${PRIMING}${answerEvent(ANSWER.replace("Echo: hi", "Écho: 日本"))}`);
    const cut = bytes.indexOf(encoder.encode("日")[0] as number) + 1;
    const read = await singleAnswerOf(Readable.from([bytes.subarray(0, cut), bytes.subarray(cut)]), 1);
    expect(JSON.parse((read as { answer: string }).answer).result.content[0].text).toBe("Écho: 日本");
  });

  it.each([
    [
      "a progress notification before the answer",
      [
        PRIMING,
        'data: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}\n\n',
        answerEvent(),
      ],
    ],
    [
      "a question to the client before the answer",
      [
        PRIMING,
        'data: {"jsonrpc":"2.0","id":0,"method":"elicitation/create","params":{}}\n\n',
        answerEvent(),
      ],
    ],
    ["an answer to another request", ['data: {"jsonrpc":"2.0","id":9,"result":{}}\n\n', answerEvent()]],
    ["a retry hint", ["id: 1_0\nretry: 500\ndata: \n\n", answerEvent()]],
    ["another event type", [`event: other\ndata: ${ANSWER}\n\n`]],
    ["an answer without the blank line that ends its event", [PRIMING, `data: ${ANSWER}`]],
    ["data that is not JSON", ["data: {not json\n\n"]],
    ["only a priming event", [PRIMING]],
    // The parser cannot tell the last CR from half a CRLF; such rare streams take the slower road, whole.
    ["lines ended by CR alone", [`${PRIMING}${answerEvent()}`.replaceAll("\n", "\r")]],
    ["a batch of answers", [`data: [${ANSWER}]\n\n`]],
  ])("is the stream itself, byte for byte, when it holds more: %s", async (_case, chunks) => {
    const read = await singleAnswerOf(ended(...chunks), 1);
    expect(read).toHaveProperty("stream");
    expect(await textOf(streamOfRead(read))).toBe(chunks.join(""));
  });

  it("reads an answer that comes in many small chunks", async () => {
    const big = `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"${"x".repeat(500_000)}"}]}}`;
    const read = await singleAnswerOf(ended(...pieces(`${PRIMING}data: ${big}\n\n`, 1024)), 1);
    expect((read as { answer: string }).answer).toBe(big);
  });

  it("passes on an answer of more than a megabyte as the stream it is", async () => {
    const huge = `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"${"x".repeat(1_100_000)}"}]}}`;
    const chunks = pieces(`${PRIMING}data: ${huge}\n\n`, 65_536);
    expect(await textOf(streamOfRead(await singleAnswerOf(ended(...chunks), 1)))).toBe(chunks.join(""));
  });

  it("hands the stream on at the first message that is not the answer, before the stream ends", async () => {
    const body = source(
      PRIMING,
      'data: {"jsonrpc":"2.0","id":0,"method":"elicitation/create","params":{}}\n\n',
    );
    // The server now waits for the client's reply: nothing more comes until it has it.
    const reader = streamOfRead(await singleAnswerOf(body.body, 1)).getReader();
    const decoder = new TextDecoder();
    let seen = "";
    while (!seen.includes("elicitation/create")) seen += decoder.decode((await reader.read()).value);
    body.write(answerEvent());
    body.end();
    for (let next = await reader.read(); !next.done; next = await reader.read())
      seen += decoder.decode(next.value);
    expect(seen).toContain(ANSWER);
  });

  it("gives the answer at once, without waiting for the stream to end, and reads the rest away", async () => {
    const body = source(`${PRIMING}${answerEvent()}`);
    expect(await singleAnswerOf(body.body, 1)).toEqual({ answer: ANSWER });
    body.write(": later\n\n");
    body.end();
    // The rest is read to the end, not cut: the connection it came on serves again.
    await new Promise((resolve) => body.body.once("end", resolve));
    expect(body.body.readableEnded).toBe(true);
  });

  it("passes on a stream that fails, with what came before the failure", async () => {
    const body = source(PRIMING);
    setTimeout(() => body.fail(new Error("socket hang up")), 5);
    const reader = streamOfRead(await singleAnswerOf(body.body, 1)).getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe(PRIMING);
    await expect(reader.read()).rejects.toThrow("socket hang up");
  });

  it("stops reading the server when the client cancels the stream", async () => {
    const body = source(
      'data: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}\n\n',
    );
    await streamOfRead(await singleAnswerOf(body.body, 1)).cancel();
    expect(body.body.destroyed).toBe(true);
  });
});

describe("singleAnswerFetch", () => {
  const call = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo" } });
  /** A guarded request that answers with this event stream (or status), as undici answers. */
  const sse =
    (text: string, statusCode = 200) =>
    async (input: string | URL | Request, init?: RequestInit): Promise<GuardedAnswer> => ({
      answer: {
        statusCode,
        statusText: "OK",
        headers: { "content-type": "text/event-stream; charset=utf-8" },
        body: ended(text),
      } as unknown as Dispatcher.ResponseData,
      url: new URL(String(input)),
      method: init?.method ?? "GET",
      sent: typeof init?.body === "string" ? init.body : undefined,
    });

  it("answers a POST of one request with the answer as JSON", async () => {
    const response = await singleAnswerFetch(sse(`${PRIMING}${answerEvent()}`))("http://server/mcp", {
      method: "POST",
      body: call,
    });
    expect(response.status).toBe(200);
    expect(response.url).toBe("http://server/mcp");
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await response.json()).toMatchObject({ id: 1, result: { content: [{ text: "Echo: hi" }] } });
  });

  it("passes on a GET's stream, another status, and a batch's stream as they are", async () => {
    const text = `${PRIMING}${answerEvent()}`;
    const get = await singleAnswerFetch(sse(text))("http://server/mcp", { method: "GET" });
    expect(get.headers.get("content-type")).toContain("text/event-stream");
    expect(await get.text()).toBe(text);
    const refused = await singleAnswerFetch(sse(text, 202))("http://server/mcp", {
      method: "POST",
      body: call,
    });
    expect(await refused.text()).toBe(text);
    const batch = JSON.stringify([JSON.parse(call), { ...JSON.parse(call), id: 2 }]);
    // Without event ids, a stream that ends cannot be resumed.
    const both = await singleAnswerFetch(sse(`data: ${ANSWER}\n\n`))("http://server/mcp", {
      method: "POST",
      body: batch,
    });
    // The second request is never answered: the stream says so when it ends, so the client does not wait.
    const read = await both.text();
    expect(read).toContain(ANSWER);
    expect(read).toContain('"id":2,"error"');
  });
});
