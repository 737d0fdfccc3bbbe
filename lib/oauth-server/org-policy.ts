import { z } from "zod";
import { publishChange } from "@/db/change-feed";
import type { Database } from "@/db/client";
import { recordAudit } from "@/lib/audit/record-audit";
import { type RequestContext, requireAdmin } from "@/lib/auth/context";
import {
  findOAuthClientPolicies,
  type OAuthClientPolicy,
  storeOAuthClientPolicy,
} from "@/lib/orgs/organizations";
import { parseInput } from "@/lib/validation";
import { endOrganizationGrants, GRANTS_CHANNEL } from "./grants";
import { redirectHostAllowed } from "./redirect-uris";

const HOST = /^(\[[0-9a-f:.]+\]|[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*)$/i;

const policySchema = z.object({
  enabled: z.boolean({ error: "Choose whether OAuth clients may connect." }),
  redirectHosts: z
    .array(
      z
        .string()
        .trim()
        .toLowerCase()
        .transform((host) => host.replace(/^\[|\]$/g, ""))
        .refine((host) => HOST.test(host) || HOST.test(`[${host}]`), {
          error: "Each allowed host is a host name like claude.ai or 127.0.0.1, without a scheme or path.",
        }),
    )
    .max(50, { error: "List at most 50 hosts." })
    .nullable(),
});

/** The organization's OAuth client policy, for its owners and admins. */
export async function organizationOAuthPolicy(db: Database, ctx: RequestContext): Promise<OAuthClientPolicy> {
  requireAdmin(ctx);
  return (
    (await findOAuthClientPolicies(db, [ctx.orgId])).get(ctx.orgId) ?? { enabled: true, redirectHosts: null }
  );
}

/**
 * Sets whether the organization's members may connect MCP clients by OAuth, and which hosts those clients may
 * send people back to (null: any). Turning clients off ends every grant; narrowing the hosts ends the grants of
 * clients that could only send people elsewhere. Both reach every instance at once.
 */
export async function setOrganizationOAuthPolicy(
  db: Database,
  ctx: RequestContext,
  input: { enabled: unknown; redirectHosts: unknown },
): Promise<{ ended: number }> {
  requireAdmin(ctx);
  const parsed = parseInput(policySchema, input);
  const policy: OAuthClientPolicy = {
    enabled: parsed.enabled,
    redirectHosts: parsed.redirectHosts ? [...new Set(parsed.redirectHosts)] : null,
  };
  const before = await organizationOAuthPolicy(db, ctx);
  await db.transaction(async (tx) => {
    await storeOAuthClientPolicy(tx, ctx.orgId, policy);
    await publishChange(db, GRANTS_CHANNEL, ctx.orgId, tx);
  });
  const ended = policy.enabled
    ? await endOrganizationGrants(db, ctx, "redirect host no longer allowed", (uris) =>
        uris.some((uri) => redirectHostAllowed(policy.redirectHosts, uri)),
      )
    : await endOrganizationGrants(db, ctx, "OAuth clients turned off");
  await recordAudit(db, ctx, {
    action: "settings.update",
    targetType: "settings",
    targetName: "OAuth clients",
    before: { ...before },
    after: { ...policy, endedGrants: ended },
  });
  return { ended };
}
