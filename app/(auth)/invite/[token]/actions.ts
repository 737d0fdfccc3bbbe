"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import type { FormState } from "@/components/forms/form-state";
import { auth, signInWithPassword, signOutTo, unstable_update } from "@/lib/auth/nextauth";
import { UnauthorizedError } from "@/lib/errors";
import { formArg } from "@/lib/http/action-args";
import { anyone, serverAction } from "@/lib/http/server-action";
import { acceptInvitation, registerWithInvitation } from "@/lib/invitations/accept-invitation";
import { isInvitationToken } from "@/lib/invitations/tokens";
import { switchOrganization } from "@/lib/orgs/organizations";

const formInput = z.object({ form: formArg });

// The token never goes into a log line: it is the invitation itself.
const tokenOf = (form: FormData) => String(form.get("invitation") ?? "");

/** The signed-in user's id, with a message that says what to do on the invitation's page. */
async function signedInUserId(): Promise<string> {
  const session = await auth();
  if (!session?.userId) throw new UnauthorizedError("Sign in first, then open the invitation again.");
  return session.userId;
}

/** The signed-in user joins with the invited role and lands in the organization. */
export async function acceptInvitationAction(_prev: FormState, form: FormData): Promise<FormState> {
  return serverAction({
    name: "acceptInvitation",
    args: formInput,
    input: { form },
    context: signedInUserId,
    run: async ({ db, ctx: userId }) => {
      const { orgId } = await acceptInvitation(db, { token: tokenOf(form), userId });
      await unstable_update({ orgId });
      return orgId;
    },
    onSuccess: (orgId) => {
      revalidatePath("/", "layout");
      redirect(`/?joined=${orgId}`);
    },
  });
}

/** Creates the invited person's account (even while open registration is off), signs them in, and lands in the organization. */
export async function registerWithInvitationAction(_prev: FormState, form: FormData): Promise<FormState> {
  return serverAction({
    name: "registerWithInvitation",
    args: formInput,
    input: { form },
    context: anyone,
    keep: ["name"],
    run: async ({ db }) => {
      const password = String(form.get("password") ?? "");
      const joined = await registerWithInvitation(db, {
        token: tokenOf(form),
        name: String(form.get("name") ?? ""),
        password,
      });
      return { ...joined, password };
    },
    onSuccess: async ({ email, password, orgId }) => {
      return signInWithPassword({ email, password }, `/?joined=${orgId}`);
    },
  });
}

/** Signs out someone signed in with another address, and brings them back to the invitation. */
export async function signOutForInvitationAction(_prev: FormState, form: FormData): Promise<FormState> {
  return serverAction({
    name: "signOutForInvitation",
    args: formInput,
    input: { form },
    context: anyone,
    run: () => tokenOf(form),
    onSuccess: async (token) => {
      return signOutTo(isInvitationToken(token) ? `/invite/${token}` : "/login");
    },
  });
}

/** A member who opened an invitation to an organization they are in already goes there. */
export async function openOrganizationAction(_prev: FormState, form: FormData): Promise<FormState> {
  return serverAction({
    name: "openOrganization",
    args: formInput,
    input: { form },
    context: signedInUserId,
    run: async ({ db, ctx: userId }) => {
      const orgId = String(form.get("orgId") ?? "");
      await switchOrganization(db, { userId, orgId });
      await unstable_update({ orgId });
    },
    onSuccess: () => {
      revalidatePath("/", "layout");
      redirect("/");
    },
  });
}
