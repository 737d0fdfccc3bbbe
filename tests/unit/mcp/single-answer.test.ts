import { PassThrough, Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { singleAnswerOf } from "@/lib/mcp/client/single-answer";

const ANSWER = '{"result":{"content":[{"type":"text","text":"Echo: hi"}]},"jsonrpc":"2.0","id":1}';
const PRIMING = "id: 1_0\ndata: \n\n";
const answerEvent = (data = ANSWER) => `event: message\nid: 1_1\ndata: ${data}\n\n`;

const streamOf = (...chunks: string[]) => Readable.from(chunks.map((chunk) => Buffer.from(chunk)));

async function textOf(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

/** Splits text into chunks of n bytes, as a network would. */
const pieces = (text: string, n: number) =>
  Array.from({ length: Math.ceil(text.length / n) }, (_, i) => text.slice(i * n, (i + 1) * n));

describe("an event stream answering a POST", () => {
  it.each([
    ["a priming event, then the answer", [PRIMING, answerEvent()]],
    ["the answer alone, without an event type", [`data: ${ANSWER}\n\n`]],
    [
      "an error answer",
      [PRIMING, answerEvent('{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"no"}}')],
    ],
    ["lines ended by CRLF", [`${PRIMING}${answerEvent()}`.replaceAll("\n", "\r\n")]],
    ["lines ended by CR", [`${PRIMING}${answerEvent()}`.replaceAll("\n", "\r")]],
    [
      "a CRLF split between chunks",
      [`${PRIMING}data: {"jsonrpc":"2.0",\r`, '\ndata: "id":1,"result":{}}\r\n\r\n'],
    ],
    ["three-byte pieces", pieces(`${PRIMING}${answerEvent()}`, 3)],
    ["comments and a keep-alive", [": keep-alive\n\n", PRIMING, answerEvent(), ": bye\n\n"]],
    ["data on two lines", [`data: {"jsonrpc":"2.0",\ndata: "id":1,"result":{}}\n\n`]],
  ])("is its answer as JSON when it holds only that: %s", async (_case, chunks) => {
    const read = await singleAnswerOf(streamOf(...chunks));
    expect(read).toHaveProperty("answer");
    expect(JSON.parse((read as { answer: string }).answer)).toHaveProperty("jsonrpc", "2.0");
  });

  it("keeps a multi-byte character split between chunks", async () => {
    const text = `${PRIMING}${answerEvent(ANSWER.replace("Echo: hi", "Écho: 日本"))}`;
    const bytes = Buffer.from(text);
    const cut = bytes.indexOf(Buffer.from("日")) + 1;
    const read = await singleAnswerOf(Readable.from([bytes.subarray(0, cut), bytes.subarray(cut)]));
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
    ["two answers", [answerEvent(), answerEvent()]],
    ["a retry hint", ["id: 1_0\nretry: 500\ndata: \n\n", answerEvent()]],
    ["another event type", [`event: other\ndata: ${ANSWER}\n\n`]],
    ["an answer without the blank line that ends its event", [PRIMING, `data: ${ANSWER}`]],
    ["data that is not JSON", ["data: {not json\n\n"]],
    ["only a priming event", [PRIMING]],
    ["a batch of answers", [`data: [${ANSWER}]\n\n`]],
  ])("is the stream itself, byte for byte, when it holds more: %s", async (_case, chunks) => {
    const read = await singleAnswerOf(streamOf(...chunks));
    expect(read).toHaveProperty("stream");
    expect(await textOf((read as { stream: ReadableStream<Uint8Array> }).stream)).toBe(chunks.join(""));
  });

  it("reads an answer that comes in many small chunks", async () => {
    const big = `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"${"x".repeat(500_000)}"}]}}`;
    const read = await singleAnswerOf(streamOf(...pieces(`${PRIMING}data: ${big}\n\n`, 1024)));
    expect((read as { answer: string }).answer).toBe(big);
  });

  it("passes on an answer of more than a megabyte as the stream it is", async () => {
    const huge = `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"${"x".repeat(1_100_000)}"}]}}`;
    const chunks = pieces(`${PRIMING}data: ${huge}\n\n`, 65_536);
    const read = await singleAnswerOf(streamOf(...chunks));
    expect(await textOf((read as { stream: ReadableStream<Uint8Array> }).stream)).toBe(chunks.join(""));
  });

  it("hands the stream on at the first message that is not the answer, before the stream ends", async () => {
    const body = new PassThrough();
    body.write(PRIMING);
    body.write('data: {"jsonrpc":"2.0","id":0,"method":"elicitation/create","params":{}}\n\n');
    // The server now waits for the client's reply: nothing more comes until it has it.
    const read = await singleAnswerOf(body);
    expect(read).toHaveProperty("stream");
    const reader = (read as { stream: ReadableStream<Uint8Array> }).stream.getReader();
    const decoder = new TextDecoder();
    let seen = "";
    while (!seen.includes("elicitation/create")) seen += decoder.decode((await reader.read()).value);
    body.end(answerEvent());
    let rest = "";
    for (let next = await reader.read(); !next.done; next = await reader.read())
      rest += decoder.decode(next.value);
    expect(seen + rest).toContain(ANSWER);
  });

  it("hands the stream on when it does not end soon after its answer, with what follows", async () => {
    const body = new PassThrough();
    body.write(`${PRIMING}${answerEvent()}`);
    const read = await singleAnswerOf(body);
    expect(read).toHaveProperty("stream");
    body.end(": later\n\n");
    expect(await textOf((read as { stream: ReadableStream<Uint8Array> }).stream)).toBe(
      `${PRIMING}${answerEvent()}: later\n\n`,
    );
  });

  it("passes on a stream that fails, with what came before the failure", async () => {
    const body = new PassThrough();
    body.write(PRIMING);
    setTimeout(() => body.destroy(new Error("socket hang up")), 5);
    const read = await singleAnswerOf(body);
    const reader = (read as { stream: ReadableStream<Uint8Array> }).stream.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe(PRIMING);
    await expect(reader.read()).rejects.toThrow("socket hang up");
  });

  it("stops reading the server when the client cancels the stream", async () => {
    const body = new PassThrough();
    body.write(
      'data: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}\n\n',
    );
    const read = await singleAnswerOf(body);
    await (read as { stream: ReadableStream<Uint8Array> }).stream.cancel();
    expect(body.destroyed).toBe(true);
  });
});
