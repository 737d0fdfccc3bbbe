"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import type { FormState } from "@/components/forms/form-state";
import { requireSignedInUser } from "@/lib/auth/request-context";
import { createAgent, deleteAgent, updateAgent } from "@/lib/chat/agents";
import { formArg, idArg } from "@/lib/http/action-args";
import { serverAction } from "@/lib/http/server-action";

const saveInput = z.object({ id: idArg.nullable(), form: formArg });
const idInput = z.object({ id: idArg });

const optionalText = (value: FormDataEntryValue | null) => (value === null ? undefined : String(value));

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
    toolApproval: optionalText(form.get("toolApproval")),
  };
}

export async function saveAgentAction(
  id: string | null,
  _prev: FormState,
  form: FormData,
): Promise<FormState> {
  return serverAction({
    name: "saveAgent",
    args: saveInput,
    input: { id, form },
    context: requireSignedInUser,
    keep: ["name", "instructions", "model"],
    run: async ({ db, ctx }) => {
      if (id) await updateAgent(db, ctx, id, agentFromForm(form));
      else await createAgent(db, ctx, agentFromForm(form));
    },
    onSuccess: () => {
      revalidatePath("/agents");
      redirect("/agents");
    },
  });
}

export async function deleteAgentAction(id: string): Promise<{ error?: string }> {
  return serverAction({
    name: "deleteAgent",
    args: idInput,
    input: { id },
    context: requireSignedInUser,
    run: ({ db, ctx }) => deleteAgent(db, ctx, id),
    onSuccess: () => {
      revalidatePath("/agents");
      redirect("/agents");
    },
  });
}
