"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import type { FormState } from "@/components/forms/form-state";
import { requireSignedInUser } from "@/lib/auth/request-context";
import { annotationsFromHints } from "@/lib/capabilities/annotations-schema";
import { createCapability, deleteCapability, updateCapability } from "@/lib/capabilities/store";
import { formArg, idArg } from "@/lib/http/action-args";
import { parseJsonField } from "@/lib/http/json-field";
import { serverAction } from "@/lib/http/server-action";

const saveInput = z.object({ id: idArg.nullable(), form: formArg });
const idInput = z.object({ id: idArg });

function json(form: FormData, name: string, label: string): unknown {
  return parseJsonField(String(form.get(name) ?? ""), name, `${label} is not valid JSON.`);
}

export async function saveCapabilityAction(
  id: string | null,
  _prev: FormState,
  form: FormData,
): Promise<FormState> {
  return serverAction({
    name: "saveCapability",
    args: saveInput,
    input: { id, form },
    context: requireSignedInUser,
    keep: ["namespace", "action", "description", "parametersSchema", "outputSchema", "code"],
    run: async ({ db, ctx }) => {
      const input = {
        namespace: String(form.get("namespace") ?? ""),
        action: String(form.get("action") ?? ""),
        description: String(form.get("description") ?? ""),
        parametersSchema: json(form, "parametersSchema", "The parameters schema"),
        outputSchema: json(form, "outputSchema", "The output schema") ?? null,
        annotations: annotationsFromHints(form.getAll("hints")),
        code: String(form.get("code") ?? ""),
      };
      if (id) await updateCapability(db, ctx, id, input);
      else await createCapability(db, ctx, input);
    },
    onSuccess: () => {
      revalidatePath("/capabilities");
      redirect("/capabilities");
    },
  });
}

export async function deleteCapabilityAction(id: string): Promise<{ error?: string }> {
  return serverAction({
    name: "deleteCapability",
    args: idInput,
    input: { id },
    context: requireSignedInUser,
    run: ({ db, ctx }) => deleteCapability(db, ctx, id),
    onSuccess: () => {
      revalidatePath("/capabilities");
      redirect("/capabilities");
    },
  });
}

/** The capability as it stands in the editor, saved or not; each schema is the text of its field. */
export interface CapabilityDraftInput {
  id: string | null;
  namespace: string;
  action: string;
  description: string;
  parametersSchema: string;
  /** The output schema's text; blank for none. */
  outputSchema: string;
  code: string;
}

/** The capability editor's fields: the draft a test run uses, and what it declares of itself. */
export interface CapabilityFormValues extends CapabilityDraftInput {
  /** The annotations it declares true (`readOnlyHint`…). */
  hints: string[];
}
