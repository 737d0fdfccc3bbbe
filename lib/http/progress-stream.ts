const NDJSON = "application/x-ndjson";

/** Whether the caller asked to follow the work as it goes (Accept: application/x-ndjson). */
export const wantsProgress = (request: Request) => Boolean(request.headers.get("accept")?.includes(NDJSON));

/**
 * Work answered as newline-delimited JSON: each line the work sends as it goes (`{"type":"progress",…}`, say), then
 * one `{"type":"result","result":…}` line, or, if it fails, `{"type":"refusal","status":…,"body":…}` with the status
 * and body its error would have had as a plain answer.
 */
export function progressStream<Line extends { type: string }>(
  run: (send: (line: Line) => void) => Promise<unknown>,
  refusalOf: (error: unknown) => Response,
): Response {
  const encoder = new TextEncoder();
  // A caller that leaves closes the stream; nothing more is written to it.
  let open = true;
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      const line = (value: unknown) => {
        if (open) controller.enqueue(encoder.encode(`${JSON.stringify(value)}\n`));
      };
      try {
        line({ type: "result", result: await run(line) });
      } catch (error) {
        const refused = refusalOf(error);
        line({ type: "refusal", status: refused.status, body: await refused.json() });
      }
      if (open) controller.close();
      open = false;
    },
    cancel() {
      open = false;
    },
  });
  return new Response(body, {
    headers: { "content-type": NDJSON, "cache-control": "no-store, no-transform" },
  });
}
