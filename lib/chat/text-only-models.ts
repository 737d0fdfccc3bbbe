import type { Database } from "@/db/client";
import type { RequestContext } from "@/lib/auth/context";
import { organizationModelList } from "./model-lists";

const textOnlyModels = organizationModelList("textOnlyModels", {
  setting: "Text-only chat models",
  tooMany: "Mark at most 100 models as text only.",
});

/** The models the organization marked as not taking images; every other model is sent images as image parts. */
export const organizationTextOnlyModels = textOnlyModels.read;

/** Sets which models of the organization cannot see images (a local text model, say); owners and admins only. */
export const setOrganizationTextOnlyModels = textOnlyModels.set;

/** Whether a model is sent images: yes, unless the organization marked it text only. */
export async function modelTakesImages(db: Database, ctx: RequestContext, model: string): Promise<boolean> {
  return !(await organizationTextOnlyModels(db, ctx)).includes(model);
}
