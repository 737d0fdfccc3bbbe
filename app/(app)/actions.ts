"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import type { FormState } from "@/components/forms/form-state";
import { getDb } from "@/db/client";
import { signOut, unstable_update } from "@/lib/auth/nextauth";
import { requireApiContext, requireSignedInUserId } from "@/lib/auth/request-context";
import { toActionError } from "@/lib/errors";
import { formArg, idArg, invalidActionArgs } from "@/lib/http/action-args";
import { createOrganization, switchOrganization } from "@/lib/orgs/organizations";

const switchInput = z.object({ orgId: idArg });
const formInput = z.object({ form: formArg });

export async function switchOrganizationAction(orgId: string): Promise<FormState> {
  const invalid = invalidActionArgs(switchInput, { orgId });
  if (invalid) return invalid;
  try {
    const ctx = await requireApiContext();
    await switchOrganization(getDb(), { userId: ctx.userId, orgId });
    await unstable_update({ orgId });
  } catch (error) {
    return toActionError(error, { action: "switchOrganization" });
  }
  revalidatePath("/", "layout");
  return {};
}

export async function createOrganizationAction(_prev: FormState, form: FormData): Promise<FormState> {
  const invalid = invalidActionArgs(formInput, { form });
  if (invalid) return invalid;
  const name = String(form.get("name") ?? "");
  let orgId: string;
  try {
    // Someone with no organization left may create one too, so only a signed-in, enabled user is required here.
    const org = await createOrganization(getDb(), { ownerId: await requireSignedInUserId(), name });
    orgId = org.id;
    await unstable_update({ orgId });
  } catch (error) {
    return { ...toActionError(error, { action: "createOrganization" }), values: { name } };
  }
  revalidatePath("/", "layout");
  redirect(`/?created=${orgId}`);
}

export async function signOutAction() {
  await signOut({ redirectTo: "/login" });
}
