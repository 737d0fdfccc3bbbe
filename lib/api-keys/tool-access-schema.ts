import { z } from "zod";
import type { ApiKeyScope } from "@/db/schema";
import { parseInput } from "@/lib/validation";
import { KNOWLEDGE_ONLY } from "./key-scope";

/** What an API key or an authorized client may use, as the forms offer it. */
export const ACCESS_CHOICES = ["all", "knowledge", "chosen"] as const;
export type AccessChoice = (typeof ACCESS_CHOICES)[number];

const choice = z.enum(["all", "selected"], { error: "Choose all or only the selected ones." });
const text = z.string({ error: "must be text" });

const toolAccessSchema = (who: string) =>
  z.object({
    access: z.enum(ACCESS_CHOICES, { error: `Choose what ${who} may use.` }),
    integrationScope: choice,
    integrationIds: z.array(text),
    capabilityScope: choice,
    capabilityIds: z.array(text),
    builtins: z.boolean(),
  });

/**
 * The scope a form's access fields describe (ToolAccessFields): null for everything, the knowledge tools alone, or
 * the chosen integrations and capabilities; a ValidationError naming the field when one is not what the form sends.
 * Ids are checked against the organization by whoever stores the scope.
 */
export function toolAccessFromForm(form: FormData, who: "the key" | "the app"): ApiKeyScope | null {
  const data = parseInput(toolAccessSchema(who), {
    access: form.get("access") ?? "all",
    integrationScope: form.get("integrationScope") ?? "all",
    integrationIds: form.getAll("integrationIds"),
    capabilityScope: form.get("capabilityScope") ?? "all",
    capabilityIds: form.getAll("capabilityIds"),
    builtins: form.get("builtins") === "on",
  });
  if (data.access === "all") return null;
  if (data.access === "knowledge") return KNOWLEDGE_ONLY;
  return {
    integrationIds: data.integrationScope === "selected" ? data.integrationIds : null,
    capabilityIds: data.capabilityScope === "selected" ? data.capabilityIds : null,
    builtins: data.builtins,
  };
}

/** What the access fields show for a stored or proposed scope. */
export interface ToolAccessValues {
  access: AccessChoice;
  integrationIds: string[] | null;
  capabilityIds: string[] | null;
  builtins: boolean;
}

export function toolAccessValues(scope: ApiKeyScope | null): ToolAccessValues {
  if (!scope) return { access: "all", integrationIds: null, capabilityIds: null, builtins: true };
  const knowledgeOnly =
    scope.builtins && scope.integrationIds?.length === 0 && scope.capabilityIds?.length === 0;
  return { access: knowledgeOnly ? "knowledge" : "chosen", ...scope };
}
