import { randomBytes } from "node:crypto";
import { and, eq, lt, notExists, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { type OAuthClientRow, oauthClients, oauthGrants } from "@/db/schema";
import { enforceRateLimit, RateLimitedError } from "@/lib/api-keys/rate-limit";
import { getEnv } from "@/lib/env";
import { checkClientMetadata } from "./client-metadata";
import { fetchMetadataDocument, isMetadataDocumentUrl } from "./client-metadata-document";
import { OAuthError, OAuthErrorCode, oauthError } from "./oauth-response";
import { hashSecret, matchesHash, newSecret } from "./secrets";

/** What the consent page and Connected apps show of a client. */
export interface ClientView {
  name: string;
  logoUri: string | null;
  clientUri: string | null;
  kind: OAuthClientRow["kind"];
  /** The client_id for a metadata document's client: its URL, which says who publishes it. */
  documentUrl: string | null;
}

export function clientView(client: Pick<OAuthClientRow, "clientId" | "kind" | "metadata">): ClientView {
  const { metadata } = client;
  return {
    name: metadata.client_name?.trim() || "An unnamed client",
    logoUri: metadata.logo_uri ?? null,
    clientUri: metadata.client_uri ?? null,
    kind: client.kind,
    documentUrl: client.kind === "metadata_document" ? client.clientId : null,
  };
}

// Registered clients nobody authorized within a day are deleted when others register: every connection attempt of
// a hosted client registers anew, and those never finished would otherwise pile up.
const UNUSED_CLIENT_TTL = sql`interval '1 day'`;

/**
 * Dynamic client registration (RFC 7591): checks the metadata, stores the client and answers its client_id (and a
 * secret, shown once and stored only as a hash, unless it registers as a public client with
 * token_endpoint_auth_method "none"). Refused when OAUTH_DYNAMIC_REGISTRATION is off, and rate-limited per address.
 */
export async function registerClient(
  db: Database,
  body: unknown,
  { address }: { address: string | null },
): Promise<Record<string, unknown>> {
  const env = getEnv();
  if (!env.OAUTH_DYNAMIC_REGISTRATION)
    throw oauthError(
      OAuthErrorCode.AccessDenied,
      "Dynamic client registration is turned off on this server. Use a client that identifies itself with a Client ID Metadata Document, or connect with an API key.",
    );
  try {
    await enforceRateLimit(db, `oauth-register:${address ?? "unknown"}`, env.OAUTH_REGISTRATIONS_PER_MINUTE);
  } catch (error) {
    if (error instanceof RateLimitedError)
      throw oauthError(OAuthErrorCode.TooManyRequests, error.message, error.details?.headers);
    throw error;
  }
  const metadata = checkClientMetadata(body, "client_secret_basic");
  const secret = metadata.token_endpoint_auth_method === "none" ? undefined : newSecret("clientSecret");
  const clientId = `sbo_client_${randomBytes(16).toString("base64url")}`;
  const [row] = await db
    .insert(oauthClients)
    .values({ clientId, kind: "dynamic", secretHash: secret ? hashSecret(secret) : null, metadata })
    .returning({ createdAt: oauthClients.createdAt });
  await pruneUnusedClients(db);
  return {
    ...metadata,
    client_id: clientId,
    client_id_issued_at: Math.floor((row?.createdAt ?? new Date()).getTime() / 1000),
    ...(secret ? { client_secret: secret, client_secret_expires_at: 0 } : {}),
  };
}

async function pruneUnusedClients(db: Database) {
  await db
    .delete(oauthClients)
    .where(
      and(
        eq(oauthClients.kind, "dynamic"),
        lt(oauthClients.createdAt, sql`now() - ${UNUSED_CLIENT_TTL}`),
        notExists(
          db.select({ one: sql`1` }).from(oauthGrants).where(eq(oauthGrants.clientId, oauthClients.id)),
        ),
      ),
    );
}

// One fetch of a metadata document at a time per client_id in this process; others wait for it.
const fetching = new Map<string, Promise<OAuthClientRow>>();

/**
 * The client a client_id names: a registered one, or the client of a Client ID Metadata Document, fetched (and
 * kept until its cache lifetime ends) when the id is its https URL. Throws invalid_client when there is none.
 */
export async function findClient(db: Database, clientId: string): Promise<OAuthClientRow> {
  if (clientId.length > 2000) throw unknownClient();
  const [row] = await db.select().from(oauthClients).where(eq(oauthClients.clientId, clientId));
  if (row && (row.kind === "dynamic" || (row.refreshAt && row.refreshAt > new Date()))) return row;
  if (!isMetadataDocumentUrl(clientId)) throw unknownClient();
  let pending = fetching.get(clientId);
  if (!pending) {
    pending = storeDocument(db, clientId).finally(() => fetching.delete(clientId));
    fetching.set(clientId, pending);
  }
  return pending;
}

async function storeDocument(db: Database, clientId: string): Promise<OAuthClientRow> {
  const { metadata, refreshAt } = await fetchMetadataDocument(clientId, {
    allowPrivateNetworks: getEnv().MCP_ALLOW_PRIVATE_NETWORKS,
  });
  const [row] = await db
    .insert(oauthClients)
    .values({ clientId, kind: "metadata_document", metadata, refreshAt })
    .onConflictDoUpdate({ target: oauthClients.clientId, set: { metadata, refreshAt } })
    .returning();
  if (!row) throw new Error("insert returned no row");
  return row;
}

const unknownClient = () =>
  oauthError(
    OAuthErrorCode.InvalidClient,
    "Unknown client_id: register the client first (see registration_endpoint), or use the https URL of its Client ID Metadata Document.",
  );

/** The client's credentials at the token and revocation endpoints: HTTP Basic, or client_id (and secret) in the form. */
function presentedCredentials(form: URLSearchParams, authorization: string | null) {
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(authorization ?? "")?.[1];
  if (basic) {
    const decoded = Buffer.from(basic, "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon < 0)
      throw oauthError(
        OAuthErrorCode.InvalidClient,
        "The Basic credentials are not client_id:client_secret.",
      );
    const decode = (value: string) => {
      try {
        return decodeURIComponent(value.replaceAll("+", " "));
      } catch {
        throw oauthError(OAuthErrorCode.InvalidClient, "The Basic credentials are not form-encoded.");
      }
    };
    return {
      clientId: decode(decoded.slice(0, colon)),
      secret: decode(decoded.slice(colon + 1)),
      basic: true,
    };
  }
  const clientId = form.get("client_id");
  if (!clientId)
    throw oauthError(OAuthErrorCode.InvalidClient, "Send client_id (or HTTP Basic client credentials).");
  return { clientId, secret: form.get("client_secret") ?? undefined, basic: false };
}

/**
 * The client making a token or revocation request, authenticated as it registered: a public client by its
 * client_id, a confidential one by its secret too (Basic or in the form, either way). Throws invalid_client.
 */
export async function authenticateClient(
  db: Database,
  form: URLSearchParams,
  authorization: string | null,
): Promise<OAuthClientRow> {
  const { clientId, secret, basic } = presentedCredentials(form, authorization);
  const bodyId = form.get("client_id");
  if (basic && bodyId && bodyId !== clientId)
    throw oauthError(
      OAuthErrorCode.InvalidClient,
      "client_id in the form differs from the Basic credentials.",
    );
  let client: OAuthClientRow;
  try {
    client = await findClient(db, clientId);
  } catch (error) {
    if (error instanceof OAuthError) throw withBasicChallenge(error, basic);
    throw error;
  }
  if (client.secretHash && !(secret && matchesHash(secret, client.secretHash)))
    throw withBasicChallenge(
      oauthError(
        OAuthErrorCode.InvalidClient,
        secret ? "The client secret is wrong." : "Send the client secret.",
      ),
      basic,
    );
  return client;
}

/** RFC 6749 §5.2: a client that tried Basic authentication is answered with a Basic challenge. */
function withBasicChallenge(error: OAuthError, basic: boolean): OAuthError {
  return basic
    ? oauthError(error.code as OAuthErrorCode, error.message, {
        "WWW-Authenticate": 'Basic realm="switchboard"',
      })
    : error;
}
