import { z } from "zod";
import type { CreateApiKeyInput } from "@/lib/api-keys/api-keys";
import { KNOWLEDGE_ONLY } from "@/lib/api-keys/key-scope";
import { parseInput } from "@/lib/validation";
import { ACCESS_CHOICES, EXPIRY_CHOICES } from "./choices";

const choice = z.enum(["all", "selected"], { error: "Choose all or only the selected ones." });
const text = z.string({ error: "must be text" });

/** The create-key form's fields; a form without the expiry and access fields makes a plain key. */
const createKeyFormSchema = z
  .object({
    name: text,
    metaToolsOnly: z.boolean(),
    expiresIn: z.enum(EXPIRY_CHOICES, { error: "Choose when the key expires." }),
    expiresOn: text,
    access: z.enum(ACCESS_CHOICES, { error: "Choose what the key may use." }),
    integrationScope: choice,
    integrationIds: z.array(text),
    capabilityScope: choice,
    capabilityIds: z.array(text),
    builtins: z.boolean(),
  })
  .refine((form) => form.expiresIn !== "date" || form.expiresOn.trim() !== "", {
    error: "Choose the expiry date.",
    path: ["expiresAt"],
  });

/**
 * The form's fields as the domain's input to createApiKey, which checks them further (ids, dates); a
 * ValidationError naming the field when one is not what the form sends.
 */
export function createKeyInputFromForm(form: FormData): CreateApiKeyInput {
  const data = parseInput(createKeyFormSchema, {
    name: form.get("name") ?? "",
    metaToolsOnly: form.get("metaToolsOnly") === "on",
    expiresIn: form.get("expiresIn") ?? "never",
    expiresOn: form.get("expiresOn") ?? "",
    access: form.get("access") ?? "all",
    integrationScope: form.get("integrationScope") ?? "all",
    integrationIds: form.getAll("integrationIds"),
    capabilityScope: form.get("capabilityScope") ?? "all",
    capabilityIds: form.getAll("capabilityIds"),
    builtins: form.get("builtins") === "on",
  });
  const expiry =
    data.expiresIn === "never"
      ? {}
      : data.expiresIn === "date"
        ? { expiresAt: data.expiresOn.trim() }
        : { expiresInDays: Number(data.expiresIn) };
  const scope =
    data.access === "all"
      ? null
      : data.access === "knowledge"
        ? KNOWLEDGE_ONLY
        : {
            integrationIds: data.integrationScope === "selected" ? data.integrationIds : null,
            capabilityIds: data.capabilityScope === "selected" ? data.capabilityIds : null,
            builtins: data.builtins,
          };
  return { name: data.name, metaToolsOnly: data.metaToolsOnly, ...expiry, scope };
}
