import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "@/db/client";
import { organizations } from "@/db/schema";
import { recordAudit } from "@/lib/audit/record-audit";
import { type RequestContext, requireAdmin } from "@/lib/auth/context";
import { parseInput } from "@/lib/validation";
import { modelNameSchema } from "./model-name";

const textOnlyModelsSchema = z
  .array(modelNameSchema)
  .max(100, { error: "Mark at most 100 models as text only." })
  .transform((names) => [...new Set(names)]);

/** The models the organization marked as not taking images; every other model is sent images as image parts. */
export async function organizationTextOnlyModels(db: Database, ctx: RequestContext): Promise<string[]> {
  const [row] = await db
    .select({ textOnlyModels: organizations.textOnlyModels })
    .from(organizations)
    .where(eq(organizations.id, ctx.orgId));
  return row?.textOnlyModels ?? [];
}

/** Sets which models of the organization cannot see images (a local text model, say); owners and admins only. */
export async function setOrganizationTextOnlyModels(db: Database, ctx: RequestContext, input: unknown) {
  requireAdmin(ctx);
  const models = parseInput(textOnlyModelsSchema, input);
  const before = await organizationTextOnlyModels(db, ctx);
  await db.update(organizations).set({ textOnlyModels: models }).where(eq(organizations.id, ctx.orgId));
  await recordAudit(db, ctx, {
    action: "settings.update",
    targetType: "settings",
    targetName: "Text-only chat models",
    before: { textOnlyModels: before },
    after: { textOnlyModels: models },
  });
  return models;
}

/** Whether a model is sent images: yes, unless the organization marked it text only. */
export async function modelTakesImages(db: Database, ctx: RequestContext, model: string): Promise<boolean> {
  return !(await organizationTextOnlyModels(db, ctx)).includes(model);
}
