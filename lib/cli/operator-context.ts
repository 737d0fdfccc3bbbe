import type { Database } from "@/db/client";
import { type RequestContext, systemContext } from "@/lib/auth/context";
import { getOrganizationBySlug } from "@/lib/orgs/organizations";

/** The operator acts with full rights in the organization named by --org; the CLI has no session. */
export async function operatorContext(db: Database, orgSlug: string): Promise<RequestContext> {
  const org = await getOrganizationBySlug(db, orgSlug);
  return systemContext("operator-cli", org.id);
}
