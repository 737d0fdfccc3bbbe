import type { Database } from "@/db/client";
import type { RequestContext } from "@/lib/auth/context";
import { NotFoundError } from "@/lib/errors";
import { findIntegrationForOrg, type McpIntegration } from "../repository";

/** The organization's integration `id`; a NotFoundError for a missing id or another organization's. */
export async function loadIntegrationForOrg(
  db: Database,
  ctx: RequestContext,
  id: string,
): Promise<McpIntegration> {
  const row = await findIntegrationForOrg(db, ctx.orgId, id);
  if (!row) throw new NotFoundError("That integration");
  return row;
}
