import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "@/db/client";
import { organizations } from "@/db/schema";
import { recordAudit } from "@/lib/audit/record-audit";
import { type RequestContext, requireAdmin } from "@/lib/auth/context";
import { parseInput } from "@/lib/validation";
import { modelNameSchema } from "./model-name";

/**
 * A list of model names an organization keeps in one of its columns (the models it allows, those it marks text
 * only): read by any member, set by owners and admins with an audit entry, at most 100 names, each once.
 */
export function organizationModelList(
  column: "chatModels" | "textOnlyModels",
  labels: { setting: string; tooMany: string },
) {
  const schema = z
    .array(modelNameSchema)
    .max(100, { error: labels.tooMany })
    .transform((names) => [...new Set(names)]);

  async function read(db: Database, ctx: RequestContext): Promise<string[]> {
    const [row] = await db
      .select({ list: organizations[column] })
      .from(organizations)
      .where(eq(organizations.id, ctx.orgId));
    return row?.list ?? [];
  }

  async function set(db: Database, ctx: RequestContext, input: unknown): Promise<string[]> {
    requireAdmin(ctx);
    const models = parseInput(schema, input);
    const before = await read(db, ctx);
    await db
      .update(organizations)
      .set({ [column]: models })
      .where(eq(organizations.id, ctx.orgId));
    await recordAudit(db, ctx, {
      action: "settings.update",
      targetType: "settings",
      targetName: labels.setting,
      before: { [column]: before },
      after: { [column]: models },
    });
    return models;
  }

  return { read, set };
}
