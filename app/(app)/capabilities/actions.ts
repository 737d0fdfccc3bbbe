"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import type { FormState } from "@/components/forms/form-state";
import { getDb } from "@/db/client";
import { requireApiContext } from "@/lib/auth/request-context";
import { createCapability, deleteCapability, updateCapability } from "@/lib/capabilities/store";
import { toActionError } from "@/lib/errors";
import { formArg, idArg, invalidActionArgs } from "@/lib/http/action-args";
import { parseJsonField } from "@/lib/http/json-field";

const saveInput = z.object({ id: idArg.nullable(), form: formArg });
const idInput = z.object({ id: idArg });

function json(form: FormData, name: string, label: string): unknown {
  return parseJsonField(String(form.get(name) ?? ""), name, `${label} is not valid JSON.`);
}

const keep = (form: FormData) =>
  Object.fromEntries(
    ["namespace", "action", "description", "parametersSchema", "code"].map((key) => [
      key,
      String(form.get(key) ?? ""),
    ]),
  );

export async function saveCapabilityAction(
  id: string | null,
  _prev: FormState,
  form: FormData,
): Promise<FormState> {
  const invalid = invalidActionArgs(saveInput, { id, form });
  if (invalid) return invalid;
  try {
    const ctx = await requireApiContext();
    const input = {
      namespace: String(form.get("namespace") ?? ""),
      action: String(form.get("action") ?? ""),
      description: String(form.get("description") ?? ""),
      parametersSchema: json(form, "parametersSchema", "The parameters schema"),
      code: String(form.get("code") ?? ""),
    };
    if (id) await updateCapability(getDb(), ctx, id, input);
    else await createCapability(getDb(), ctx, input);
  } catch (error) {
    return { ...toActionError(error, { action: "saveCapability" }), values: keep(form) };
  }
  revalidatePath("/capabilities");
  redirect("/capabilities");
}

export async function deleteCapabilityAction(id: string): Promise<{ error?: string }> {
  const invalid = invalidActionArgs(idInput, { id });
  if (invalid) return invalid;
  try {
    await deleteCapability(getDb(), await requireApiContext(), id);
  } catch (error) {
    return toActionError(error, { action: "deleteCapability" });
  }
  revalidatePath("/capabilities");
  redirect("/capabilities");
}

/** The capability as it stands in the editor, saved or not; the schema is the text of its field. */
export interface CapabilityDraftInput {
  id: string | null;
  namespace: string;
  action: string;
  description: string;
  parametersSchema: string;
  code: string;
}
