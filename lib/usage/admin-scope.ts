import { asc, eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import { organizations } from "@/db/schema";
import { isAdminRole, type RequestContext } from "@/lib/auth/context";
import { ForbiddenError } from "@/lib/errors";
import { isUuid } from "@/lib/validation";

/**
 * Which organization's dashboard the caller may see: a superadmin any (the requested one, else their own), an
 * owner or admin only their own; members none.
 */
export async function adminOrganization(db: Database, ctx: RequestContext, requested?: string) {
  if (ctx.isSuperadmin && requested && isUuid(requested)) {
    const [org] = await db.select().from(organizations).where(eq(organizations.id, requested));
    if (org) return org;
  }
  if (!ctx.isSuperadmin && !isAdminRole(ctx.role))
    throw new ForbiddenError("Only the organization's owners and admins see its dashboard.");
  const [own] = await db.select().from(organizations).where(eq(organizations.id, ctx.orgId));
  if (!own) throw new ForbiddenError("Only the organization's owners and admins see its dashboard.");
  return own;
}

/** Every organization, for a superadmin's organization picker. */
export function listAllOrganizations(db: Database) {
  return db
    .select({ id: organizations.id, name: organizations.name, slug: organizations.slug })
    .from(organizations)
    .orderBy(asc(organizations.name));
}
