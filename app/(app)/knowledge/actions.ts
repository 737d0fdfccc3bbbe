"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import type { FormState } from "@/components/forms/form-state";
import { requireSignedInUser } from "@/lib/auth/request-context";
import { ValidationError } from "@/lib/errors";
import { formArg, idArg } from "@/lib/http/action-args";
import { serverAction } from "@/lib/http/server-action";
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

export async function saveNodeAction(
  id: string | null,
  _prev: FormState,
  form: FormData,
): Promise<FormState> {
  return serverAction({
    name: "saveKnowledgeNode",
    args: saveInput,
    input: { id, form },
    context: requireSignedInUser,
    keep: ["name", "content", "metadata"],
    run: async ({ db, ctx }) => {
      if (id) await updateKnowledgeNode(db, ctx, id, nodeInput(form));
      else await createKnowledgeNode(db, ctx, nodeInput(form));
    },
    onSuccess: () => {
      revalidatePath("/knowledge");
      return { success: id ? "Saved." : "Added." };
    },
  });
}

export async function importNodesAction(_prev: FormState, form: FormData): Promise<FormState> {
  return serverAction({
    name: "importKnowledge",
    args: formInput,
    input: { form },
    context: requireSignedInUser,
    run: async ({ db, ctx }) => {
      const uploads = form
        .getAll("files")
        .filter((value): value is File => value instanceof File && value.size > 0);
      if (uploads.length === 0) throw new ValidationError("Choose one or more .json or .md files.");
      if (uploads.some((file) => file.size > 2 * 1024 * 1024))
        throw new ValidationError("Each file must be under 2 MiB.");
      const files = await Promise.all(
        uploads.map(async (file) => ({ name: file.name, text: await file.text() })),
      );
      return (await importKnowledgeNodes(db, ctx, files)).imported;
    },
    onSuccess: (imported) => {
      revalidatePath("/knowledge");
      return { success: `Imported ${imported} ${imported === 1 ? "node" : "nodes"}.` };
    },
  });
}

export async function deleteNodeAction(id: string): Promise<FormState> {
  return serverAction({
    name: "deleteKnowledgeNode",
    args: idInput,
    input: { id },
    context: requireSignedInUser,
    run: ({ db, ctx }) => deleteKnowledgeNode(db, ctx, id),
    onSuccess: () => {
      revalidatePath("/knowledge");
      return {};
    },
  });
}
