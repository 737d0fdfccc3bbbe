import { z } from "zod";
import type { CreateApiKeyInput } from "@/lib/api-keys/api-keys";
import { toolAccessFromForm } from "@/lib/api-keys/tool-access-schema";
import { parseInput } from "@/lib/validation";
import { EXPIRY_CHOICES } from "./choices";

const text = z.string({ error: "must be text" });

/** The create-key form's fields; a form without the expiry and access fields makes a plain key. */
const createKeyFormSchema = z
  .object({
    name: text,
    metaToolsOnly: z.boolean(),
    expiresIn: z.enum(EXPIRY_CHOICES, { error: "Choose when the key expires." }),
    expiresOn: text,
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
  });
  const expiry =
    data.expiresIn === "never"
      ? {}
      : data.expiresIn === "date"
        ? { expiresAt: data.expiresOn.trim() }
        : { expiresInDays: Number(data.expiresIn) };
  return {
    name: data.name,
    metaToolsOnly: data.metaToolsOnly,
    ...expiry,
    scope: toolAccessFromForm(form, "the key"),
  };
}
