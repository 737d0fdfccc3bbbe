import { asc, eq, inArray, like } from "drizzle-orm";
import { z } from "zod";
import { publishChange } from "@/db/change-feed";
import type { Database } from "@/db/client";
import { type Organization, organizations } from "@/db/schema";
import { recordAudit } from "@/lib/audit/record-audit";
import { type RequestContext, requireAdmin } from "@/lib/auth/context";
import { lockActiveUserId, setActiveOrganization } from "@/lib/auth/user-rows";
import { ConflictError, NotFoundError, UnauthorizedError } from "@/lib/errors";
import { flushUsage } from "@/lib/usage/record-usage";
import { parseInput } from "@/lib/validation";
import { addMembership, findMembershipRole } from "./memberships";
import { orgNameSchema, orgSlugSchema, slugify } from "./schemas";

/** The first free slug of the form base, base-2, base-3… */
async function freeSlug(db: Database, base: string): Promise<string> {
  const taken = new Set(
    (
      await db
        .select({ slug: organizations.slug })
        .from(organizations)
        .where(like(organizations.slug, `${base}%`))
    ).map((row) => row.slug),
  );
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

/**
 * Creates an organization with the given user as its owner. A slug that is given must be free; otherwise one is
 * derived from the name. The owner must be an enabled user at this moment, whatever their session says.
 */
export async function createOrganization(
  db: Database,
  input: { ownerId?: string; name: string; slug?: string },
): Promise<Organization> {
  const name = parseInput(orgNameSchema, input.name);
  const slug = input.slug === undefined ? undefined : parseInput(orgSlugSchema, input.slug);
  return db.transaction(async (tx) => {
    if (input.ownerId) {
      // Locked, so a user being disabled right now cannot slip an organization in behind the switch.
      const owner = await lockActiveUserId(tx, input.ownerId);
      if (!owner) throw new UnauthorizedError("Your session has ended. Sign in again.");
    }
    if (slug) {
      const [existing] = await tx
        .select({ id: organizations.id })
        .from(organizations)
        .where(eq(organizations.slug, slug));
      if (existing)
        throw new ConflictError(`An organization with the slug "${slug}" already exists.`, {
          slug: ["Taken"],
        });
    }
    const [org] = await tx
      .insert(organizations)
      .values({ name, slug: slug ?? (await freeSlug(tx, slugify(name))) })
      .returning();
    if (!org) throw new Error("insert returned no row");
    if (input.ownerId) {
      await addMembership(tx, { organizationId: org.id, userId: input.ownerId, role: "owner" });
      await setActiveOrganization(tx, input.ownerId, org.id);
    }
    return org;
  });
}

export async function getOrganizationBySlug(db: Database, slug: string): Promise<Organization> {
  const [org] = await db
    .select()
    .from(organizations)
    .where(eq(organizations.slug, slug.trim().toLowerCase()));
  if (!org) throw new NotFoundError(`The organization "${slug}"`);
  return org;
}

/** One organization by id, whoever asks: callers decide who may see it. */
export async function findOrganizationById(db: Database, id: string): Promise<Organization | undefined> {
  const [org] = await db.select().from(organizations).where(eq(organizations.id, id));
  return org;
}

/** The organization's name, or undefined when there is no such organization. */
export async function findOrganizationName(db: Database, id: string): Promise<string | undefined> {
  const [org] = await db
    .select({ name: organizations.name })
    .from(organizations)
    .where(eq(organizations.id, id));
  return org?.name;
}

/** Every organization, for a superadmin's organization picker. */
export function listAllOrganizations(db: Database) {
  return db
    .select({ id: organizations.id, name: organizations.name, slug: organizations.slug })
    .from(organizations)
    .orderBy(asc(organizations.name));
}

/** The id of every organization, for operator commands that act on all of them. */
export async function listOrganizationIds(db: Database): Promise<string[]> {
  return (await db.select({ id: organizations.id }).from(organizations)).map((org) => org.id);
}

/** Makes an organization the user's active one; only an organization the user belongs to. */
export async function switchOrganization(db: Database, { userId, orgId }: { userId: string; orgId: string }) {
  const membership = await findMembershipRole(db, { userId, orgId });
  if (!membership) throw new NotFoundError("That organization");
  await setActiveOrganization(db, userId, orgId);
  return membership;
}

/** Turns keeping tool calls' arguments and results (secrets redacted) on or off for the organization, at once. */
export async function setRecordToolPayloads(db: Database, ctx: RequestContext, enabled: unknown) {
  requireAdmin(ctx);
  const on = parseInput(z.boolean({ error: "Choose on or off." }), enabled);
  const [before] = await db
    .select({ value: organizations.recordToolPayloads })
    .from(organizations)
    .where(eq(organizations.id, ctx.orgId));
  // Calls made here before the change are written under the old setting; calls still queued on another
  // instance (half a second's at most) are written under the new one.
  await flushUsage(db);
  await db.transaction(async (tx) => {
    await tx.update(organizations).set({ recordToolPayloads: on }).where(eq(organizations.id, ctx.orgId));
    // Usage recording keeps the setting in memory (lib/usage/record-usage.ts).
    await publishChange(db, "switchboard_orgs", ctx.orgId, tx);
  });
  await recordAudit(db, ctx, {
    action: "settings.update",
    targetType: "settings",
    targetName: "Keep tool arguments and results",
    before: { recordToolPayloads: before?.value ?? false },
    after: { recordToolPayloads: on },
  });
}

/** Whether an organization lets MCP clients in by OAuth, and where they may send people back (null: anywhere). */
export interface OAuthClientPolicy {
  enabled: boolean;
  redirectHosts: string[] | null;
}

/** The OAuth client policies of these organizations, by id. */
export async function findOAuthClientPolicies(
  db: Database,
  orgIds: readonly string[],
): Promise<Map<string, OAuthClientPolicy>> {
  if (orgIds.length === 0) return new Map();
  const rows = await db
    .select({
      id: organizations.id,
      enabled: organizations.oauthClientsEnabled,
      redirectHosts: organizations.oauthRedirectHosts,
    })
    .from(organizations)
    .where(inArray(organizations.id, [...orgIds]));
  return new Map(
    rows.map(({ id, ...policy }) => [id, { ...policy, redirectHosts: policy.redirectHosts ?? null }]),
  );
}

/** Stores an organization's OAuth client policy (the caller checks who may, and tells the caches). */
export async function storeOAuthClientPolicy(db: Database, orgId: string, policy: OAuthClientPolicy) {
  await db
    .update(organizations)
    .set({ oauthClientsEnabled: policy.enabled, oauthRedirectHosts: policy.redirectHosts })
    .where(eq(organizations.id, orgId));
}
