import { OAuthClientMetadataSchema } from "@modelcontextprotocol/core";
import { z } from "zod";
import type { OAuthClientRecordMetadata } from "@/db/schema";
import { OAuthErrorCode, oauthError } from "./oauth-response";
import { redirectUriProblem } from "./redirect-uris";

export type ClientAuthMethod = OAuthClientRecordMetadata["token_endpoint_auth_method"];

const AUTH_METHODS = ["none", "client_secret_basic", "client_secret_post"] as const;
const GRANT_TYPES = ["authorization_code", "refresh_token"];

const text = (max: number) => z.string().max(max, { error: `at most ${max} characters` });
const httpsUrl = z
  .string()
  .max(2000)
  .refine((value) => {
    try {
      return new URL(value).protocol === "https:";
    } catch {
      return false;
    }
  }, "must be an https URL");

/** Our limits on top of the MCP SDK's RFC 7591 schema: sizes, https logos and pages, and what we support. */
const limitsSchema = z.object({
  redirect_uris: z
    .array(text(2000), { error: "redirect_uris is a list of URLs." })
    .min(1, { error: "Register at least one redirect URI." })
    .max(20, { error: "Register at most 20 redirect URIs." }),
  token_endpoint_auth_method: z
    .enum(AUTH_METHODS, {
      error: `token_endpoint_auth_method must be one of ${AUTH_METHODS.join(", ")}.`,
    })
    .optional(),
  grant_types: z
    .array(z.string())
    .max(10)
    .refine((types) => types.every((type) => GRANT_TYPES.includes(type)), {
      error: `grant_types may only name ${GRANT_TYPES.join(" and ")}.`,
    })
    .optional(),
  response_types: z
    .array(z.string())
    .max(5)
    .refine((types) => types.every((type) => type === "code"), {
      error: 'response_types may only name "code".',
    })
    .optional(),
  client_name: text(200).optional(),
  client_uri: httpsUrl.optional(),
  logo_uri: httpsUrl.optional(),
  scope: text(2000).optional(),
  software_id: text(200).optional(),
  software_version: text(100).optional(),
});

/**
 * A client's metadata (a registration's body, or a metadata document) checked: the SDK's schema, our limits, and
 * each redirect URI (https, or loopback http). `defaultAuthMethod` is RFC 7591's default for registrations
 * (client_secret_basic); a metadata document's client has no secret (none). Throws invalid_client_metadata or
 * invalid_redirect_uri with what is wrong.
 */
export function checkClientMetadata(
  body: unknown,
  defaultAuthMethod: ClientAuthMethod,
): OAuthClientRecordMetadata {
  const base = OAuthClientMetadataSchema.safeParse(body);
  if (!base.success) throw invalidMetadata(base.error);
  const limited = limitsSchema.safeParse(base.data);
  if (!limited.success) throw invalidMetadata(limited.error);
  const metadata = limited.data;
  for (const uri of metadata.redirect_uris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw oauthError(OAuthErrorCode.InvalidRedirectUri, problem);
  }
  if (metadata.grant_types && !metadata.grant_types.includes("authorization_code"))
    throw oauthError(OAuthErrorCode.InvalidClientMetadata, 'grant_types must include "authorization_code".');
  const picked: OAuthClientRecordMetadata = {
    redirect_uris: metadata.redirect_uris,
    token_endpoint_auth_method: metadata.token_endpoint_auth_method ?? defaultAuthMethod,
  };
  for (const key of [
    "client_name",
    "client_uri",
    "logo_uri",
    "scope",
    "software_id",
    "software_version",
  ] as const)
    if (metadata[key] !== undefined) picked[key] = metadata[key];
  if (metadata.grant_types) picked.grant_types = metadata.grant_types;
  return picked;
}

function invalidMetadata(error: z.ZodError) {
  const issue = error.issues[0];
  const field = issue?.path.join(".") ?? "";
  const message = issue?.message ?? "The client metadata is not valid.";
  const code = field.startsWith("redirect_uris.")
    ? OAuthErrorCode.InvalidRedirectUri
    : OAuthErrorCode.InvalidClientMetadata;
  return oauthError(code, field ? `${field}: ${message}` : message);
}

/** Whether the client may be given refresh tokens: unless it registered grant types without refresh_token. */
export const mayRefresh = (metadata: OAuthClientRecordMetadata) =>
  !metadata.grant_types || metadata.grant_types.includes("refresh_token");
