import { AppError, ValidationError } from "@/lib/errors";

const DEFAULT_LIMIT = 1024 * 1024;

/**
 * How deeply a request body may nest arrays and objects. Deeper documents overflow the stack of whatever walks
 * them next (schema validation, serialization to an MCP server, logging), so they are refused up front; real
 * tool arguments and chat messages stay far below this.
 */
export const MAX_JSON_DEPTH = 64;

export interface JsonLimits {
  /** Most levels of nested arrays and objects (MAX_JSON_DEPTH unless given). */
  maxDepth?: number;
  /**
   * NUL (`\u0000`) or half a surrogate pair (`\ud800`) in a string or key is refused unless allowed: Postgres
   * stores NUL in neither text nor jsonb, and jsonb refuses a lone surrogate, so either would fail later.
   */
  allowUnstorableText?: boolean;
}

export type JsonTextProblem = "empty" | "invalid" | "too_deep" | "nul" | "lone_surrogate";

/**
 * One pass over JSON text, before it is parsed: whether it nests deeper than `maxDepth`, and whether a string
 * escapes NUL or half a surrogate pair (the only ways JSON text can carry either). Brackets and escapes inside
 * strings are skipped.
 */
function scanJson(
  text: string,
  maxDepth: number,
): { tooDeep: boolean; nul: boolean; loneSurrogate: boolean } {
  let depth = 0;
  let inString = false;
  let nul = false;
  let loneSurrogate = false;
  const hex = (at: number) => Number.parseInt(text.slice(at, at + 4), 16);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) {
        // A backslash escapes the next character; `\uXXXX` is one UTF-16 code unit.
        if (text.charCodeAt(i + 1) !== 0x75) {
          i++;
          continue;
        }
        const unit = hex(i + 2);
        if (unit === 0) nul = true;
        else if (unit >= 0xd800 && unit <= 0xdbff) {
          const pairedWith = text.startsWith("\\u", i + 6) ? hex(i + 8) : Number.NaN;
          if (pairedWith >= 0xdc00 && pairedWith <= 0xdfff) {
            i += 11;
            continue;
          }
          loneSurrogate = true;
        } else if (unit >= 0xdc00 && unit <= 0xdfff) loneSurrogate = true;
        i += 5;
      } else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > maxDepth) return { tooDeep: true, nul, loneSurrogate };
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return { tooDeep: false, nul, loneSurrogate };
}

/** Parses JSON text within the limits: the value, or which limit (or JSON's own grammar) it broke. */
export function parseJsonText(
  text: string,
  { maxDepth = MAX_JSON_DEPTH, allowUnstorableText = false }: JsonLimits = {},
): { ok: true; value: unknown } | { ok: false; problem: JsonTextProblem } {
  if (text.trim() === "") return { ok: false, problem: "empty" };
  const scan = scanJson(text, maxDepth);
  if (scan.tooDeep) return { ok: false, problem: "too_deep" };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, problem: "invalid" };
  }
  if (!allowUnstorableText && scan.nul) return { ok: false, problem: "nul" };
  if (!allowUnstorableText && scan.loneSurrogate) return { ok: false, problem: "lone_surrogate" };
  return { ok: true, value };
}

/** What each problem means to the person who sent the body. */
export function jsonProblemMessage(problem: JsonTextProblem, maxDepth = MAX_JSON_DEPTH): string {
  switch (problem) {
    case "empty":
      return "The request body is empty; send a JSON object.";
    case "invalid":
      return "The request body is not valid JSON.";
    case "too_deep":
      return `The request body nests arrays and objects more than ${maxDepth} levels deep.`;
    case "nul":
      return "The request body contains a NUL character (\\u0000), which is not accepted in any text.";
    case "lone_surrogate":
      return "The request body contains half of a UTF-16 surrogate pair (such as \\ud800), which is not valid text.";
  }
}

/** Reads a request body's bytes, up to a limit (checked on the declared length first, then as it arrives). */
export async function readBodyBytes(
  request: Request,
  limitBytes = DEFAULT_LIMIT,
  tooLarge: (limit: number) => Error = bodyTooLarge,
): Promise<Buffer> {
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
  return Buffer.concat(chunks);
}

/** Reads a request body as text, up to a limit. */
export async function readBodyText(request: Request, limitBytes = DEFAULT_LIMIT): Promise<string> {
  return (await readBodyBytes(request, limitBytes)).toString("utf8");
}

/**
 * Reads a JSON request body: the right content type, a bounded size, valid JSON nested at most MAX_JSON_DEPTH
 * levels and without NUL or lone surrogates; each failure a clear 4xx.
 */
export async function readJsonBody(
  request: Request,
  limitBytes = DEFAULT_LIMIT,
  limits: JsonLimits = {},
): Promise<unknown> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/(.+\+)?json\b/i.test(type)) {
    throw new AppError(
      "unsupported_media_type:request",
      "Send the body as JSON with `Content-Type: application/json`.",
    );
  }
  const parsed = parseJsonText(await readBodyText(request, limitBytes), limits);
  if (!parsed.ok) throw new ValidationError(jsonProblemMessage(parsed.problem, limits.maxDepth));
  return parsed.value;
}

function bodyTooLarge(limit: number) {
  return new AppError(
    "payload_too_large:request",
    `The request body is larger than ${Math.round(limit / 1024)} KiB.`,
  );
}
