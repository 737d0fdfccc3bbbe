import type { Database } from "@/db/client";
import type { Role } from "@/db/schema";

export type { Role };

import { ForbiddenError, UnauthorizedError } from "@/lib/errors";
import { findActiveSessionUser, listActiveUserMemberships } from "./user-rows";

/** Work that no person or key started: the periodic health check, rediscovery after a server's notice, the CLI. */
export type SystemActor = "health-check" | "list-changed" | "operator-cli";

/**
 * Who is acting and for which organization; built from the session, an API key or an OAuth access token (never from
 * the request body), or, for work no request started, naming the system job that acts. A person acting through an
 * MCP client they authorized carries that client (`oauthClientId`), so usage says which client called.
 */
export type RequestContext = {
  orgId: string;
  role: Role;
  isSuperadmin: boolean;
} & (
  | { userId: string; oauthClientId?: string; apiKeyId?: undefined; system?: undefined }
  | { apiKeyId: string; userId?: undefined; oauthClientId?: undefined; system?: undefined }
  | { system: SystemActor; userId?: undefined; oauthClientId?: undefined; apiKeyId?: undefined }
);

/** The context of a system job acting in one organization: as a member does, unless it is the operator's CLI. */
export function systemContext(system: SystemActor, orgId: string): RequestContext {
  const operator = system === "operator-cli";
  return { system, orgId, role: operator ? "owner" : "member", isSuperadmin: operator };
}

export type UserContext = RequestContext & { userId: string };

export function isAdminRole(role: Role): boolean {
  return role === "owner" || role === "admin";
}

/** Throws unless the context belongs to a signed-in user. */
export function requireUser(ctx: RequestContext | null | undefined): UserContext {
  if (!ctx?.userId) throw new UnauthorizedError();
  return ctx as UserContext;
}

/** Throws unless the actor is an owner or admin of the context's organization. */
export function requireAdmin<T extends RequestContext>(ctx: T | null | undefined): T {
  if (!ctx) throw new UnauthorizedError();
  if (!isAdminRole(ctx.role))
    throw new ForbiddenError("Only owners and admins of this organization can do that.");
  return ctx;
}

export class NoOrganizationError extends ForbiddenError {
  constructor() {
    super("You are not a member of any organization yet.");
  }
}

/**
 * The user behind a session as the database has them now: throws UnauthorizedError when they were disabled or
 * deleted since signing in, or (given the session's version) when their sessions were ended since, so a
 * still-valid session cookie carries no power of its own. For actions that need a signed-in user but no
 * organization (creating a first one, say); the rest go through resolveUserContext.
 */
export async function requireActiveUser(
  db: Database,
  userId: string,
  { sessionVersion }: { sessionVersion?: number } = {},
): Promise<{ userId: string; isSuperadmin: boolean }> {
  // One select answers all three: the user exists, is enabled, and the session is still current.
  const user = userId ? await findActiveSessionUser(db, userId, { sessionVersion }) : undefined;
  if (!user) throw new UnauthorizedError("Your session has ended. Sign in again.");
  return { userId, isSuperadmin: user.isSuperadmin };
}

/**
 * Builds the context of a signed-in user from the database, so a removed member or a disabled user loses
 * access at once even while their session cookie is still valid.
 */
export async function resolveUserContext(
  db: Database,
  { userId, preferredOrgId }: { userId: string; preferredOrgId?: string | null },
): Promise<UserContext> {
  // One round trip: the user (if enabled) with each of their memberships.
  const rows = await listActiveUserMemberships(db, userId);
  const user = rows[0];
  if (!user) throw new UnauthorizedError("Your session has ended. Sign in again.");

  const wanted = preferredOrgId ?? user.activeOrganizationId;
  const membership = rows.find((row) => row.orgId === wanted) ?? rows[0];
  if (!membership?.orgId || !membership.role) throw new NoOrganizationError();
  return { userId, orgId: membership.orgId, role: membership.role, isSuperadmin: user.isSuperadmin };
}
