"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import type { FormState } from "@/components/forms/form-state";
import { signOutTo, unstable_update } from "@/lib/auth/nextauth";
import { requireSignedInUser, requireSignedInUserId } from "@/lib/auth/request-context";
import { formArg, idArg } from "@/lib/http/action-args";
import { serverAction } from "@/lib/http/server-action";
import { createOrganization, switchOrganization } from "@/lib/orgs/organizations";

const switchInput = z.object({ orgId: idArg });
const formInput = z.object({ form: formArg });

export async function switchOrganizationAction(orgId: string): Promise<FormState> {
  return serverAction({
    name: "switchOrganization",
    args: switchInput,
    input: { orgId },
    context: requireSignedInUser,
    run: async ({ db, ctx }) => {
      await switchOrganization(db, { userId: ctx.userId, orgId });
      await unstable_update({ orgId });
    },
    onSuccess: () => {
      revalidatePath("/", "layout");
      return {};
    },
  });
}

export async function createOrganizationAction(_prev: FormState, form: FormData): Promise<FormState> {
  return serverAction({
    name: "createOrganization",
    args: formInput,
    input: { form },
    // Someone with no organization left may create one too, so only a signed-in, enabled user is required here.
    context: requireSignedInUserId,
    keep: ["name"],
    run: async ({ db, ctx: ownerId }) => {
      const org = await createOrganization(db, { ownerId, name: String(form.get("name") ?? "") });
      await unstable_update({ orgId: org.id });
      return org.id;
    },
    onSuccess: (orgId) => {
      revalidatePath("/", "layout");
      redirect(`/?created=${orgId}`);
    },
  });
}

/** Signing out takes no arguments, context or database: next-auth ends the session and redirects. */
export async function signOutAction() {
  await signOutTo("/login");
}
