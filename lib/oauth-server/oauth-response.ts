import { OAuthError, OAuthErrorCode } from "@modelcontextprotocol/server";

export { OAuthError, OAuthErrorCode };

// OAuth answers must never be cached (RFC 6749 §5.1), nor gzipped: clients are programs.
const NO_STORE = { "Cache-Control": "no-store, no-transform", Pragma: "no-cache" };

const STATUS: Partial<Record<string, number>> = {
  [OAuthErrorCode.InvalidClient]: 401,
  [OAuthErrorCode.AccessDenied]: 403,
  [OAuthErrorCode.MethodNotAllowed]: 405,
  [OAuthErrorCode.TooManyRequests]: 429,
  [OAuthErrorCode.TemporarilyUnavailable]: 503,
  [OAuthErrorCode.ServerError]: 500,
};

/** A JSON answer of the authorization server, never cached. */
export function oauthJson(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers: { ...NO_STORE, ...headers } });
}

/** An OAuth error with the headers its answer carries (Retry-After, a Basic challenge). */
export class OAuthRefusal extends OAuthError {
  constructor(
    code: OAuthErrorCode,
    description: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(code, description);
  }
}

/** An RFC 6749 error answer: `{ error, error_description }` with its status (400 unless the code says otherwise). */
export function oauthErrorResponse(error: OAuthError, headers: Record<string, string> = {}): Response {
  const own = error instanceof OAuthRefusal ? error.headers : {};
  return oauthJson(error.toResponseObject(), STATUS[error.code] ?? 400, { ...own, ...headers });
}

export const oauthError = (code: OAuthErrorCode, description: string, headers?: Record<string, string>) =>
  new OAuthRefusal(code, description, headers);

/** The answer for a method an OAuth or well-known path does not serve. */
export function methodNotAllowed(method: string, allowed: string): Response {
  return oauthErrorResponse(
    oauthError(OAuthErrorCode.MethodNotAllowed, `${method} is not allowed here; use ${allowed}.`),
    { Allow: allowed },
  );
}
