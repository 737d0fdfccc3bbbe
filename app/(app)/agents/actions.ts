"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import type { FormState } from "@/components/forms/form-state";
import { getDb } from "@/db/client";
import { requireApiContext } from "@/lib/auth/request-context";
import { createAgent, deleteAgent, updateAgent } from "@/lib/chat/agents";
import { toActionError } from "@/lib/errors";
import { formArg, idArg, invalidActionArgs } from "@/lib/http/action-args";

const saveInput = z.object({ id: idArg.nullable(), form: formArg });
const idInput = z.object({ id: idArg });

/** The agent form's fields as the input the domain validates. */
function agentFromForm(form: FormData) {
  return {
    name: String(form.get("name") ?? ""),
    instructions: String(form.get("instructions") ?? ""),
    model: String(form.get("model") ?? ""),
    mcpIntegrationIds:
      form.get("integrationScope") === "selected" ? form.getAll("integrationIds").map(String) : null,
    capabilityIds:
      form.get("capabilityScope") === "selected" ? form.getAll("capabilityIds").map(String) : null,
    builtinTools: form.getAll("builtinTools").map(String),
    requireToolApproval: form.get("requireToolApproval") === "on",
  };
}

const keep = (form: FormData) => ({
  name: String(form.get("name") ?? ""),
  instructions: String(form.get("instructions") ?? ""),
  model: String(form.get("model") ?? ""),
});

export async function saveAgentAction(
  id: string | null,
  _prev: FormState,
  form: FormData,
): Promise<FormState> {
  const invalid = invalidActionArgs(saveInput, { id, form });
  if (invalid) return invalid;
  try {
    const ctx = await requireApiContext();
    if (id) await updateAgent(getDb(), ctx, id, agentFromForm(form));
    else await createAgent(getDb(), ctx, agentFromForm(form));
  } catch (error) {
    return { ...toActionError(error, { action: "saveAgent" }), values: keep(form) };
  }
  revalidatePath("/agents");
  redirect("/agents");
}

export async function deleteAgentAction(id: string): Promise<{ error?: string }> {
  const invalid = invalidActionArgs(idInput, { id });
  if (invalid) return invalid;
  try {
    await deleteAgent(getDb(), await requireApiContext(), id);
  } catch (error) {
    return toActionError(error, { action: "deleteAgent" });
  }
  revalidatePath("/agents");
  redirect("/agents");
}
