"use server";

import { revalidatePath } from "next/cache";
import type { FormState } from "@/components/forms/form-state";
import { getDb } from "@/db/client";
import { requireApiContext } from "@/lib/auth/request-context";
import { toActionError, ValidationError } from "@/lib/errors";
import { createKnowledgeNode, deleteKnowledgeNode, updateKnowledgeNode } from "@/lib/knowledge/nodes";

function nodeInput(form: FormData) {
  const metadataText = String(form.get("metadata") ?? "").trim();
  let metadata: unknown = {};
  if (metadataText) {
    try {
      metadata = JSON.parse(metadataText);
    } catch {
      throw new ValidationError('Metadata must be valid JSON, like {"owner": "ops"}.', {
        metadata: ['Metadata must be valid JSON, like {"owner": "ops"}.'],
      });
    }
  }
  return { name: String(form.get("name") ?? ""), content: String(form.get("content") ?? ""), metadata };
}

const values = (form: FormData) => ({
  name: String(form.get("name") ?? ""),
  content: String(form.get("content") ?? ""),
  metadata: String(form.get("metadata") ?? ""),
});

export async function saveNodeAction(
  id: string | null,
  _prev: FormState,
  form: FormData,
): Promise<FormState> {
  try {
    const ctx = await requireApiContext();
    if (id) await updateKnowledgeNode(getDb(), ctx, id, nodeInput(form));
    else await createKnowledgeNode(getDb(), ctx, nodeInput(form));
  } catch (error) {
    return { ...toActionError(error, { action: "saveKnowledgeNode" }), values: values(form) };
  }
  revalidatePath("/knowledge");
  return { success: id ? "Saved." : "Added." };
}

export async function deleteNodeAction(id: string): Promise<FormState> {
  try {
    await deleteKnowledgeNode(getDb(), await requireApiContext(), id);
  } catch (error) {
    return toActionError(error, { action: "deleteKnowledgeNode" });
  }
  revalidatePath("/knowledge");
  return {};
}
