import { AppError, ValidationError } from "@/lib/errors";

const DEFAULT_LIMIT = 1024 * 1024;

/** Reads a JSON request body: the right content type, a bounded size, valid JSON; each failure a clear 4xx. */
export async function readJsonBody(request: Request, limitBytes = DEFAULT_LIMIT): Promise<unknown> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/(.+\+)?json\b/i.test(type)) {
    throw new AppError(
      "unsupported_media_type:request",
      "Send the body as JSON with `Content-Type: application/json`.",
    );
  }
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limitBytes) throw tooLarge(limitBytes);
  const reader = request.body?.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (reader) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limitBytes) {
      await reader.cancel();
      throw tooLarge(limitBytes);
    }
    chunks.push(value);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  if (text.trim() === "") throw new ValidationError("The request body is empty; send a JSON object.");
  try {
    return JSON.parse(text);
  } catch {
    throw new ValidationError("The request body is not valid JSON.");
  }
}

function tooLarge(limit: number) {
  return new AppError(
    "payload_too_large:request",
    `The request body is larger than ${Math.round(limit / 1024)} KiB.`,
  );
}
