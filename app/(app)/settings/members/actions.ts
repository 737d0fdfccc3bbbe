"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import type { FormState } from "@/components/forms/form-state";
import { requireSignedInUser } from "@/lib/auth/request-context";
import { formArg, idArg, textArg } from "@/lib/http/action-args";
import { appOrigin } from "@/lib/http/app-origin";
import { serverAction } from "@/lib/http/server-action";
import type { MailOutcome } from "@/lib/invitations/invitation-mail";
import { revokeInvitation } from "@/lib/invitations/invitations";
import { inviteMember } from "@/lib/invitations/invite-member";
import { changeMemberRole, removeMember } from "@/lib/orgs/members";

const roleInput = z.object({ userId: idArg, role: textArg });
const userInput = z.object({ userId: idArg });
const formInput = z.object({ form: formArg });
const idInput = z.object({ id: idArg });

export async function changeRoleAction(userId: string, role: string): Promise<FormState> {
  return serverAction({
    name: "changeRole",
    args: roleInput,
    input: { userId, role },
    context: requireSignedInUser,
    run: ({ db, ctx }) => changeMemberRole(db, ctx, { userId, role }),
    onSuccess: () => {
      revalidatePath("/", "layout");
      return {};
    },
  });
}

export async function removeMemberAction(userId: string): Promise<FormState> {
  return serverAction({
    name: "removeMember",
    args: userInput,
    input: { userId },
    context: requireSignedInUser,
    run: ({ db, ctx }) => removeMember(db, ctx, { userId }),
    onSuccess: () => {
      revalidatePath("/", "layout");
      return {};
    },
  });
}

export type InvitationFormState = FormState & { link?: string; email?: string; mail?: MailOutcome };

/** The invitation form's fields: the input, and what the form shows again after a refusal. */
const invitationFields = (form: FormData) => ({
  email: String(form.get("email") ?? ""),
  role: String(form.get("role") ?? "member"),
});

export async function createInvitationAction(
  _prev: InvitationFormState,
  form: FormData,
): Promise<InvitationFormState> {
  return serverAction({
    name: "createInvitation",
    args: formInput,
    input: { form },
    context: requireSignedInUser,
    keep: invitationFields,
    // The same answer whether or not the address has an account: the invitee accepts, or not.
    run: async ({ db, ctx }) => inviteMember(db, ctx, invitationFields(form), { origin: await appOrigin() }),
    onSuccess: ({ link, invitation, mail }) => {
      revalidatePath("/settings/members");
      return {
        link,
        email: invitation.email,
        mail,
        success: `Invitation created for ${invitation.email} as ${invitation.role}.`,
      };
    },
  });
}

export async function revokeInvitationAction(id: string): Promise<FormState> {
  return serverAction({
    name: "revokeInvitation",
    args: idInput,
    input: { id },
    context: requireSignedInUser,
    run: ({ db, ctx }) => revokeInvitation(db, ctx, id),
    onSuccess: () => {
      revalidatePath("/settings/members");
      return {};
    },
  });
}
