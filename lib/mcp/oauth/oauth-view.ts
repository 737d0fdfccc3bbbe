import { and, count, eq, isNotNull, isNull, or } from "drizzle-orm";
import type { Database } from "@/db/client";
import { mcpOAuthCredentials } from "@/db/schema";
import type { RequestContext } from "@/lib/auth/context";
import type { McpIntegration } from "../repository";

/** A connection as the browser may see it: its state, never a token. */
export interface OAuthConnectionView {
  status: "connected" | "needs_reconnect" | "not_connected";
  lastError: string | null;
  connectedAt: string | null;
  expiresAt: string | null;
}

export interface OAuthIntegrationView {
  credentials: "organization" | "user";
  scope: string | null;
  clientId: string | null;
  hasClientSecret: boolean;
  /** The organization's connection, or for "each user connects", the viewer's own. */
  connection: OAuthConnectionView;
  /** For "each user connects": how many users have connected. */
  connectedUsers: number | null;
}

type CredentialSummary = Pick<
  typeof mcpOAuthCredentials.$inferSelect,
  "integrationId" | "userId" | "status" | "lastError" | "connectedAt" | "expiresAt"
>;

export interface OAuthConnections {
  rows: CredentialSummary[];
  userCounts: Map<string, number>;
  viewerId: string | null;
}

/** The organization's connections and the viewer's own, for every OAuth integration of the organization. */
export async function loadOAuthConnections(db: Database, ctx: RequestContext): Promise<OAuthConnections> {
  const [rows, counts] = await Promise.all([
    db
      .select({
        integrationId: mcpOAuthCredentials.integrationId,
        userId: mcpOAuthCredentials.userId,
        status: mcpOAuthCredentials.status,
        lastError: mcpOAuthCredentials.lastError,
        connectedAt: mcpOAuthCredentials.connectedAt,
        expiresAt: mcpOAuthCredentials.expiresAt,
      })
      .from(mcpOAuthCredentials)
      .where(
        and(
          eq(mcpOAuthCredentials.organizationId, ctx.orgId),
          ctx.userId
            ? or(isNull(mcpOAuthCredentials.userId), eq(mcpOAuthCredentials.userId, ctx.userId))
            : isNull(mcpOAuthCredentials.userId),
        ),
      ),
    db
      .select({ integrationId: mcpOAuthCredentials.integrationId, users: count() })
      .from(mcpOAuthCredentials)
      .where(and(eq(mcpOAuthCredentials.organizationId, ctx.orgId), isNotNull(mcpOAuthCredentials.userId)))
      .groupBy(mcpOAuthCredentials.integrationId),
  ]);
  return {
    rows,
    userCounts: new Map(counts.map((row) => [row.integrationId, Number(row.users)])),
    viewerId: ctx.userId ?? null,
  };
}

export function oauthView(
  row: McpIntegration,
  connections: OAuthConnections | undefined,
): OAuthIntegrationView | null {
  if (row.authType !== "oauth") return null;
  const perUser = row.oauth?.credentials === "user";
  const ownerId = perUser ? connections?.viewerId : null;
  const stored = connections?.rows.find(
    (credential) =>
      credential.integrationId === row.id &&
      (ownerId ? credential.userId === ownerId : credential.userId === null),
  );
  return {
    credentials: perUser ? "user" : "organization",
    scope: row.oauth?.scope ?? null,
    clientId: row.oauth?.clientId ?? null,
    hasClientSecret: Boolean(row.credentialsEncrypted.clientSecret),
    connection: {
      status: perUser && !ownerId ? "not_connected" : (stored?.status ?? "not_connected"),
      lastError: stored?.lastError ?? null,
      connectedAt: stored?.connectedAt.toISOString() ?? null,
      expiresAt: stored?.expiresAt?.toISOString() ?? null,
    },
    connectedUsers: perUser ? (connections?.userCounts.get(row.id) ?? 0) : null,
  };
}
