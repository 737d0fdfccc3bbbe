"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import type { FormState } from "@/components/forms/form-state";
import { createApiKey, revokeApiKey } from "@/lib/api-keys/api-keys";
import { requireSignedInUser } from "@/lib/auth/request-context";
import { formArg, idArg } from "@/lib/http/action-args";
import { serverAction } from "@/lib/http/server-action";
import { createKeyInputFromForm } from "./schema";

const formInput = z.object({ form: formArg });
const idInput = z.object({ id: idArg });

export async function createApiKeyAction(
  _prev: FormState & { key?: string },
  form: FormData,
): Promise<FormState & { key?: string }> {
  return serverAction({
    name: "createApiKey",
    args: formInput,
    input: { form },
    context: requireSignedInUser,
    // Everything typed or chosen; the checked ids come back comma-separated.
    keep: ["name", "expiresOn", "integrationIds", "capabilityIds"],
    run: ({ db, ctx }) => createApiKey(db, ctx, createKeyInputFromForm(form)),
    onSuccess: ({ key, apiKey }) => {
      revalidatePath("/settings/api-keys");
      return { key, success: `Created "${apiKey.name}". Copy the key now: it is not shown again.` };
    },
  });
}

export async function revokeApiKeyAction(id: string): Promise<FormState> {
  return serverAction({
    name: "revokeApiKey",
    args: idInput,
    input: { id },
    context: requireSignedInUser,
    run: ({ db, ctx }) => revokeApiKey(db, ctx, id),
    onSuccess: () => {
      revalidatePath("/settings/api-keys");
      return {};
    },
  });
}
