import { getEnv } from "./env";
import { activeTraceIds } from "./tracing/tracing-flag";

type Level = "debug" | "info" | "warn" | "error";
const order: Record<Level | "silent", number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

const SECRET_KEY = /pass(word)?|secret|token|authorization|cookie|api[-_]?key|credential|private[-_]?key/i;
const BEARER = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi;
const KEY_VALUE = /\b(pass(?:word)?|secret|token|api[-_]?key)=([^\s&;,]+)/gi;
const URL_CREDENTIALS = /(\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)[^\s@/]+@/gi;
// The app's own API keys (lib/api-keys): sb_<8-character public prefix>_<secret>; the prefix stays, to tell keys apart.
const APP_API_KEY = /(?<![A-Za-z0-9])(sb_[A-Za-z0-9]{8})_[A-Za-z0-9_-]{8,}/g;
// What the app's authorization server issues (lib/oauth-server/secrets.ts): tokens, codes, client secrets.
const APP_OAUTH_SECRET = /(?<![A-Za-z0-9])(sbo_(?:at|rt|ac|cs))_[A-Za-z0-9_-]{8,}/g;
const REDACTED = "[redacted]";
// A record's id in a field named like one (apiKeyId, token_id) tells records apart and is no secret; only a UUID.
const ID_FIELD = /(Id|ID|_id)$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isRecordId = (key: string, value: unknown) =>
  ID_FIELD.test(key) && typeof value === "string" && UUID.test(value);
const MAX_ERROR_MESSAGE = 500;

// Every text the patterns above could change contains one of these; most log text (ids, paths, names) has none.
const MIGHT_HOLD_SECRET = /bearer|basic|pass|secret|token|api[-_]?key|:\/\/|sb_|sbo_/i;

function redactString(value: string): string {
  if (!MIGHT_HOLD_SECRET.test(value)) return value;
  return value
    .replace(BEARER, `$1 ${REDACTED}`)
    .replace(KEY_VALUE, `$1=${REDACTED}`)
    .replace(URL_CREDENTIALS, `$1${REDACTED}@`)
    .replace(APP_API_KEY, `$1_${REDACTED}`)
    .replace(APP_OAUTH_SECRET, `$1_${REDACTED}`);
}

/**
 * An error as a log shows it: name, a short message, a database code and the cause; never the stack, and never the
 * parameters a failed query carries (drizzle puts them in its message: a whole conversation, say).
 */
function redactError(error: Error, depth: number): Record<string, unknown> {
  let message = error.message;
  if ("params" in error) message = message.split(/\nparams: /)[0] ?? "";
  // Redacted before it is cut, so a cut never leaves the start of a secret unrecognized.
  message = redactString(message);
  if (message.length > MAX_ERROR_MESSAGE) message = `${message.slice(0, MAX_ERROR_MESSAGE)}…`;
  const code = (error as { code?: unknown }).code;
  return {
    name: error.name,
    message,
    ...(typeof code === "string" || typeof code === "number" ? { code: redactString(String(code)) } : {}),
    ...(error.cause !== undefined && depth < 4 ? { cause: redact(error.cause, depth + 1) } : {}),
  };
}

/** Returns a copy with secret-looking fields and bearer tokens replaced, safe to log. */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > 8) return "[deep]";
  if (typeof value === "string") return redactString(value);
  if (value instanceof Error) return redactError(value, depth);
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        redactString(key),
        SECRET_KEY.test(key) && !isRecordId(key, item) ? REDACTED : redact(item, depth + 1),
      ]),
    );
  }
  return value;
}

export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  child(fields: LogFields): Logger;
}

type Sink = (line: string, level: Level) => void;

const defaultSink: Sink = (line, level) => {
  (level === "error" || level === "warn" ? process.stderr : process.stdout).write(`${line}\n`);
};

/** Structured JSON logs, one object a line, with secrets redacted. */
export function createLogger(
  base: LogFields = {},
  sink: Sink = defaultSink,
  minLevel?: Level | "silent",
): Logger {
  const threshold = () => order[minLevel ?? getEnv().LOG_LEVEL];
  const write = (level: Level, message: string, fields?: LogFields) => {
    if (order[level] < threshold()) return;
    const entry = {
      time: new Date().toISOString(),
      level,
      msg: message,
      ...activeTraceIds(),
      ...base,
      ...fields,
    };
    sink(JSON.stringify(redact(entry)), level);
  };
  return {
    debug: (message, fields) => write("debug", message, fields),
    info: (message, fields) => write("info", message, fields),
    warn: (message, fields) => write("warn", message, fields),
    error: (message, fields) => write("error", message, fields),
    child: (fields) => createLogger({ ...base, ...fields }, sink, minLevel),
  };
}

export const logger = createLogger({ service: "switchboard" });
