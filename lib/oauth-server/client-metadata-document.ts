import type { OAuthClientRecordMetadata } from "@/db/schema";
import { createGuardedFetch } from "@/lib/mcp/client/network-guard";
import { checkClientMetadata } from "./client-metadata";
import { OAuthErrorCode, oauthError } from "./oauth-response";

/** A metadata document is small: a few URLs and names. Anything larger is refused before it is read. */
export const MAX_DOCUMENT_BYTES = 64 * 1024;
const FETCH_TIMEOUT_MS = 5_000;
/** Kept at least this long whatever the document's Cache-Control says, and at most a day. */
const MIN_CACHE_SECONDS = 300;
const MAX_CACHE_SECONDS = 86_400;

/**
 * Whether a client_id is a Client ID Metadata Document's URL, as the draft defines one: https, a path, no fragment,
 * no credentials, no dot segments.
 */
export function isMetadataDocumentUrl(clientId: string): boolean {
  if (!clientId.startsWith("https://") || /[\s\\#]/.test(clientId)) return false;
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    return false;
  }
  const rawPath = clientId.slice(`https://${url.host}`.length).split("?")[0] ?? "";
  if (url.username || url.password || rawPath === "" || rawPath === "/") return false;
  return !rawPath.split("/").some((segment) => /^(\.|%2e){1,2}$/i.test(segment));
}

export interface FetchedDocument {
  metadata: OAuthClientRecordMetadata;
  /** When to fetch it again: its Cache-Control max-age, between five minutes and a day. */
  refreshAt: Date;
}

/**
 * Fetches and checks a client's metadata document, through the same network guard as integrations (private and
 * loopback addresses refused unless MCP_ALLOW_PRIVATE_NETWORKS), within a timeout and a size limit, without
 * following redirects. The document must name itself as client_id, list redirect URIs and a name, and carry no
 * secret (its clients are public). Throws invalid_client with what went wrong.
 */
export async function fetchMetadataDocument(
  clientId: string,
  { allowPrivateNetworks }: { allowPrivateNetworks: boolean },
): Promise<FetchedDocument> {
  const refused = (why: string) =>
    oauthError(OAuthErrorCode.InvalidClient, `The client's metadata document at ${clientId} ${why}`);
  let response: Response;
  try {
    response = await createGuardedFetch(allowPrivateNetworks)(clientId, {
      headers: { accept: "application/json" },
      redirect: "manual",
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
  } catch (error) {
    const privateAddress = causeNamed(error, "PrivateNetworkError");
    throw refused(
      privateAddress
        ? `cannot be fetched: ${privateAddress.message}`
        : causeNamed(error, "TimeoutError")
          ? `did not answer within ${FETCH_TIMEOUT_MS / 1000} s.`
          : "cannot be fetched.",
    );
  }
  if (response.status !== 200) {
    void response.body?.cancel();
    throw refused(
      `answered ${response.status}; it must answer 200 with the document (redirects are not followed).`,
    );
  }
  const text = await readLimited(response, MAX_DOCUMENT_BYTES);
  if (text === undefined) throw refused(`is larger than ${MAX_DOCUMENT_BYTES / 1024} KB.`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw refused("is not JSON.");
  }
  if (!body || typeof body !== "object" || Array.isArray(body)) throw refused("is not a JSON object.");
  const document = body as Record<string, unknown>;
  if (document.client_id !== clientId) throw refused("does not name that URL as its client_id.");
  if ("client_secret" in document || "client_secret_expires_at" in document)
    throw refused("carries a client secret, which a metadata document may not.");
  if (typeof document.client_name !== "string" || document.client_name.trim() === "")
    throw refused("has no client_name.");
  let metadata: OAuthClientRecordMetadata;
  try {
    metadata = checkClientMetadata(document, "none");
  } catch (error) {
    throw refused(`is not valid: ${error instanceof Error ? error.message : "its metadata"}`);
  }
  if (metadata.token_endpoint_auth_method !== "none")
    throw refused(
      "names a token_endpoint_auth_method other than none, the only one this server takes for a document.",
    );
  return { metadata, refreshAt: new Date(Date.now() + cacheSeconds(response) * 1000) };
}

/** The error, or one of its causes, with that name. */
function causeNamed(error: unknown, name: string): Error | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    if (current.name === name) return current;
    current = current.cause;
  }
  return undefined;
}

/** The body as text, or undefined once it passes `limit` bytes (read no further). */
async function readLimited(response: Response, limit: number): Promise<string | undefined> {
  const declared = Number(response.headers.get("content-length") ?? "0");
  if (declared > limit) {
    void response.body?.cancel();
    return undefined;
  }
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      void reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function cacheSeconds(response: Response): number {
  const maxAge = /(?:^|,)\s*max-age\s*=\s*(\d+)/i.exec(response.headers.get("cache-control") ?? "")?.[1];
  const seconds = maxAge === undefined ? MIN_CACHE_SECONDS : Number(maxAge);
  return Math.min(MAX_CACHE_SECONDS, Math.max(MIN_CACHE_SECONDS, seconds));
}
