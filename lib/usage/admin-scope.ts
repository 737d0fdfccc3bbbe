import type { Database } from "@/db/client";
import { isAdminRole, type RequestContext } from "@/lib/auth/context";
import { ForbiddenError } from "@/lib/errors";
import { findOrganizationById } from "@/lib/orgs/organizations";
import { isUuid } from "@/lib/validation";

/**
 * Which organization's dashboard the caller may see: a superadmin any (the requested one, else their own), an
 * owner or admin only their own; members none.
 */
export async function adminOrganization(db: Database, ctx: RequestContext, requested?: string) {
  if (ctx.isSuperadmin && requested && isUuid(requested)) {
    const org = await findOrganizationById(db, requested);
    if (org) return org;
  }
  if (!ctx.isSuperadmin && !isAdminRole(ctx.role))
    throw new ForbiddenError("Only the organization's owners and admins see its dashboard.");
  const own = await findOrganizationById(db, ctx.orgId);
  if (!own) throw new ForbiddenError("Only the organization's owners and admins see its dashboard.");
  return own;
}
