"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import type { FormState } from "@/components/forms/form-state";
import { getDb } from "@/db/client";
import { createApiKey, revokeApiKey } from "@/lib/api-keys/api-keys";
import { requireApiContext } from "@/lib/auth/request-context";
import { toActionError } from "@/lib/errors";
import { formArg, idArg, invalidActionArgs } from "@/lib/http/action-args";
import { createKeyInputFromForm } from "./schema";

const formInput = z.object({ form: formArg });
const idInput = z.object({ id: idArg });

/** What the form shows again after a refusal, so nothing typed or chosen is lost. */
const keep = (form: FormData) => ({
  name: String(form.get("name") ?? ""),
  expiresOn: String(form.get("expiresOn") ?? ""),
  integrationIds: form.getAll("integrationIds").map(String).join(","),
  capabilityIds: form.getAll("capabilityIds").map(String).join(","),
});

export async function createApiKeyAction(
  _prev: FormState & { key?: string },
  form: FormData,
): Promise<FormState & { key?: string }> {
  const invalid = invalidActionArgs(formInput, { form });
  if (invalid) return invalid;
  try {
    const ctx = await requireApiContext();
    const { key, apiKey } = await createApiKey(getDb(), ctx, createKeyInputFromForm(form));
    revalidatePath("/settings/api-keys");
    return { key, success: `Created "${apiKey.name}". Copy the key now: it is not shown again.` };
  } catch (error) {
    return { ...toActionError(error, { action: "createApiKey" }), values: keep(form) };
  }
}

export async function revokeApiKeyAction(id: string): Promise<FormState> {
  const invalid = invalidActionArgs(idInput, { id });
  if (invalid) return invalid;
  try {
    await revokeApiKey(getDb(), await requireApiContext(), id);
  } catch (error) {
    return toActionError(error, { action: "revokeApiKey" });
  }
  revalidatePath("/settings/api-keys");
  return {};
}
