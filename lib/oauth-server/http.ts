import { AppError } from "@/lib/errors";
import { readBodyText } from "@/lib/http/read-json";
import { OAuthError, OAuthErrorCode, oauthError, oauthErrorResponse } from "./oauth-response";

/** A form is a few parameters; anything larger is not an OAuth request. */
const MAX_FORM_BYTES = 64 * 1024;

/**
 * Clients in a browser (the MCP Inspector, a web client) call the token, registration and revocation endpoints
 * from another origin. They carry no cookies, so any origin may: the answers need a client's own credentials.
 */
export const CORS_HEADERS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "POST, OPTIONS",
  "Access-Control-Allow-Headers": "Authorization, Content-Type, MCP-Protocol-Version",
  "Access-Control-Max-Age": "86400",
};

/** The answer to a CORS preflight of an OAuth endpoint. */
export const preflight = () => new Response(null, { status: 204, headers: CORS_HEADERS });

/**
 * Reads an `application/x-www-form-urlencoded` body (RFC 6749 §3.2), bounded, refusing NUL characters: every
 * value may end up stored as text.
 */
export async function readOAuthForm(request: Request): Promise<URLSearchParams> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/x-www-form-urlencoded\b/i.test(type))
    throw oauthError(
      OAuthErrorCode.InvalidRequest,
      "Send the parameters as a form, with Content-Type: application/x-www-form-urlencoded.",
    );
  return checkedParameters(new URLSearchParams(await readBodyText(request, MAX_FORM_BYTES)));
}

/** Parameters without NUL or an overlong value, else invalid_request. */
export function checkedParameters(params: URLSearchParams): URLSearchParams {
  for (const [name, value] of params) {
    if (name.includes("\u0000") || value.includes("\u0000"))
      throw oauthError(
        OAuthErrorCode.InvalidRequest,
        `${name.replaceAll("\u0000", "")} contains a NUL character.`,
      );
    if (value.length > 8192)
      throw oauthError(OAuthErrorCode.InvalidRequest, `${name} is longer than 8192 characters.`);
  }
  return params;
}

/**
 * Runs an OAuth endpoint: its OAuthErrors become RFC 6749 JSON answers, and a request the app's readers refused
 * (too large, not the right type) is invalid_request with the reader's status. Nothing becomes HTML or a 500 for
 * a client's mistake. Every answer carries the CORS headers.
 */
export async function oauthEndpoint(run: () => Promise<Response>): Promise<Response> {
  let response: Response;
  try {
    response = await run();
  } catch (error) {
    if (error instanceof OAuthError) response = oauthErrorResponse(error);
    else if (error instanceof AppError && error.status < 500)
      response = Response.json(
        { error: OAuthErrorCode.InvalidRequest, error_description: error.message },
        { status: error.status, headers: { "Cache-Control": "no-store, no-transform" } },
      );
    else throw error;
  }
  for (const [name, value] of Object.entries(CORS_HEADERS)) response.headers.set(name, value);
  return response;
}
