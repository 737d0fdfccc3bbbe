"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import type { FormState } from "@/components/forms/form-state";
import { getDb } from "@/db/client";
import { requireApiContext } from "@/lib/auth/request-context";
import { toActionError } from "@/lib/errors";
import { formArg, invalidActionArgs } from "@/lib/http/action-args";
import { appOrigin } from "@/lib/http/app-origin";
import type { MailOutcome } from "@/lib/invitations/invitation-mail";
import { revokeInvitation } from "@/lib/invitations/invitations";
import { inviteMember } from "@/lib/invitations/invite-member";
import { changeMemberRole, removeMember } from "@/lib/orgs/members";

const formInput = z.object({ form: formArg });

export async function changeRoleAction(userId: string, role: string): Promise<FormState> {
  try {
    const ctx = await requireApiContext();
    await changeMemberRole(getDb(), ctx, { userId, role });
    revalidatePath("/", "layout");
    return {};
  } catch (error) {
    return toActionError(error, { action: "changeRole" });
  }
}

export async function removeMemberAction(userId: string): Promise<FormState> {
  try {
    const ctx = await requireApiContext();
    await removeMember(getDb(), ctx, { userId });
    revalidatePath("/", "layout");
    return {};
  } catch (error) {
    return toActionError(error, { action: "removeMember" });
  }
}

export type InvitationFormState = FormState & { link?: string; email?: string; mail?: MailOutcome };

export async function createInvitationAction(
  _prev: InvitationFormState,
  form: FormData,
): Promise<InvitationFormState> {
  const invalid = invalidActionArgs(formInput, { form });
  if (invalid) return invalid;
  const values = { email: String(form.get("email") ?? ""), role: String(form.get("role") ?? "member") };
  try {
    const ctx = await requireApiContext();
    // The same answer whether or not the address has an account: the invitee accepts, or not.
    const { link, invitation, mail } = await inviteMember(getDb(), ctx, values, {
      origin: await appOrigin(),
    });
    revalidatePath("/settings/members");
    return {
      link,
      email: invitation.email,
      mail,
      success: `Invitation created for ${invitation.email} as ${invitation.role}.`,
    };
  } catch (error) {
    return { ...toActionError(error, { action: "createInvitation" }), values };
  }
}

export async function revokeInvitationAction(id: string): Promise<FormState> {
  try {
    await revokeInvitation(getDb(), await requireApiContext(), id);
  } catch (error) {
    return toActionError(error, { action: "revokeInvitation" });
  }
  revalidatePath("/settings/members");
  return {};
}
