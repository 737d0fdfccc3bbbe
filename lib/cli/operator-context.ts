import type { Database } from "@/db/client";
import type { RequestContext } from "@/lib/auth/context";
import { getOrganizationBySlug } from "@/lib/orgs/organizations";

/** The operator acts with full rights in the organization named by --org; the CLI has no session. */
export async function operatorContext(
  db: Database,
  orgSlug: string,
): Promise<RequestContext & { apiKeyId: string }> {
  const org = await getOrganizationBySlug(db, orgSlug);
  return { apiKeyId: "operator-cli", orgId: org.id, role: "owner", isSuperadmin: true };
}
