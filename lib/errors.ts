import { logger } from "./logger";

export type ErrorType =
  | "bad_request"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "payload_too_large"
  | "unsupported_media_type"
  | "rate_limit"
  | "unavailable"
  | "bad_gateway"
  | "internal";

const statusByType: Record<ErrorType, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limit: 429,
  unavailable: 503,
  bad_gateway: 502,
  internal: 500,
};

export type ErrorCode = `${ErrorType}:${string}`;

export type FieldErrors = Record<string, string[]>;

/** An error the user caused or may see: its message is safe to show. */
export class AppError extends Error {
  readonly type: ErrorType;
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: { fields?: FieldErrors; cause?: unknown; headers?: Record<string, string> },
  ) {
    super(message, { cause: details?.cause });
    this.name = "AppError";
    this.type = code.split(":")[0] as ErrorType;
    this.status = statusByType[this.type];
  }

  toJSON() {
    return {
      error: this.message,
      code: this.code,
      ...(this.details?.fields ? { fields: this.details.fields } : {}),
    };
  }
}

export class UnauthorizedError extends AppError {
  constructor(message = "Sign in to continue.") {
    super("unauthorized:auth", message);
  }
}

export class ForbiddenError extends AppError {
  constructor(message = "You do not have permission to do that.") {
    super("forbidden:auth", message);
  }
}

export class NotFoundError extends AppError {
  constructor(what: string) {
    super("not_found:resource", `${what} was not found.`);
  }
}

export class ValidationError extends AppError {
  constructor(message: string, fields?: FieldErrors) {
    super("bad_request:validation", message, { fields });
  }
}

export class ConflictError extends AppError {
  constructor(message: string, fields?: FieldErrors) {
    super("conflict:resource", message, { fields });
  }
}

const GENERIC_MESSAGE =
  "Something went wrong on our side. Try again; if it keeps happening, contact your administrator.";

/** The one mapping from any thrown value to an HTTP response: app errors as they are, the rest generic and logged. */
export function toErrorResponse(error: unknown, context: Record<string, unknown> = {}): Response {
  if (error instanceof AppError) {
    if (error.status >= 500) logger.error("request failed", { ...context, code: error.code, err: error });
    return Response.json(error.toJSON(), { status: error.status, headers: error.details?.headers });
  }
  logger.error("unexpected error", { ...context, err: error });
  return Response.json({ error: GENERIC_MESSAGE, code: "internal:server" }, { status: 500 });
}

/** The same mapping for server actions, which return a message to the form instead of a response. */
export function toActionError(
  error: unknown,
  context: Record<string, unknown> = {},
): {
  error: string;
  fields?: FieldErrors;
} {
  // Every AppError but an internal one says something the user can act on ("the server timed out", say).
  if (error instanceof AppError && error.type !== "internal") {
    if (error.status >= 500)
      logger.warn("action failed", { ...context, code: error.code, message: error.message });
    return { error: error.message, ...(error.details?.fields ? { fields: error.details.fields } : {}) };
  }
  logger.error("action failed", { ...context, err: error });
  return { error: GENERIC_MESSAGE };
}
