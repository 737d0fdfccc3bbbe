"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import type { FormState } from "@/components/forms/form-state";
import { getDb } from "@/db/client";
import { requireApiContext } from "@/lib/auth/request-context";
import { toActionError, ValidationError } from "@/lib/errors";
import { formArg, idArg, invalidActionArgs } from "@/lib/http/action-args";
import { importKnowledgeNodes } from "@/lib/knowledge/import";
import { createKnowledgeNode, deleteKnowledgeNode, updateKnowledgeNode } from "@/lib/knowledge/nodes";

const saveInput = z.object({ id: idArg.nullable(), form: formArg });
const formInput = z.object({ form: formArg });
const idInput = z.object({ id: idArg });

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
  const invalid = invalidActionArgs(saveInput, { id, form });
  if (invalid) return invalid;
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

export async function importNodesAction(_prev: FormState, form: FormData): Promise<FormState> {
  const invalid = invalidActionArgs(formInput, { form });
  if (invalid) return invalid;
  try {
    const uploads = form
      .getAll("files")
      .filter((value): value is File => value instanceof File && value.size > 0);
    if (uploads.length === 0) throw new ValidationError("Choose one or more .json or .md files.");
    if (uploads.some((file) => file.size > 2 * 1024 * 1024))
      throw new ValidationError("Each file must be under 2 MiB.");
    const files = await Promise.all(
      uploads.map(async (file) => ({ name: file.name, text: await file.text() })),
    );
    const { imported } = await importKnowledgeNodes(getDb(), await requireApiContext(), files);
    revalidatePath("/knowledge");
    return { success: `Imported ${imported} ${imported === 1 ? "node" : "nodes"}.` };
  } catch (error) {
    return toActionError(error, { action: "importKnowledge" });
  }
}

export async function deleteNodeAction(id: string): Promise<FormState> {
  const invalid = invalidActionArgs(idInput, { id });
  if (invalid) return invalid;
  try {
    await deleteKnowledgeNode(getDb(), await requireApiContext(), id);
  } catch (error) {
    return toActionError(error, { action: "deleteKnowledgeNode" });
  }
  revalidatePath("/knowledge");
  return {};
}
