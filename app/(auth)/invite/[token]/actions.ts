"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import type { FormState } from "@/components/forms/form-state";
import { getDb } from "@/db/client";
import { auth, signIn, signOut, unstable_update } from "@/lib/auth/nextauth";
import { toActionError, UnauthorizedError } from "@/lib/errors";
import { acceptInvitation, registerWithInvitation } from "@/lib/invitations/accept-invitation";
import { isInvitationToken } from "@/lib/invitations/tokens";
import { switchOrganization } from "@/lib/orgs/organizations";

// The token never goes into a log line: it is the invitation itself.
const tokenOf = (form: FormData) => String(form.get("invitation") ?? "");

async function signedInUserId(): Promise<string> {
  const session = await auth();
  if (!session?.userId) throw new UnauthorizedError("Sign in first, then open the invitation again.");
  return session.userId;
}

/** The signed-in user joins with the invited role and lands in the organization. */
export async function acceptInvitationAction(_prev: FormState, form: FormData): Promise<FormState> {
  let orgId: string;
  try {
    const joined = await acceptInvitation(getDb(), { token: tokenOf(form), userId: await signedInUserId() });
    orgId = joined.orgId;
    await unstable_update({ orgId });
  } catch (error) {
    return toActionError(error, { action: "acceptInvitation" });
  }
  revalidatePath("/", "layout");
  redirect(`/?joined=${orgId}`);
}

/** Creates the invited person's account (even while open registration is off), signs them in, and lands in the organization. */
export async function registerWithInvitationAction(_prev: FormState, form: FormData): Promise<FormState> {
  const values = { name: String(form.get("name") ?? "") };
  const password = String(form.get("password") ?? "");
  let joined: Awaited<ReturnType<typeof registerWithInvitation>>;
  try {
    joined = await registerWithInvitation(getDb(), { token: tokenOf(form), name: values.name, password });
  } catch (error) {
    return { ...toActionError(error, { action: "registerWithInvitation" }), values };
  }
  await signIn("credentials", { email: joined.email, password, redirectTo: `/?joined=${joined.orgId}` });
  return {};
}

/** Signs out someone signed in with another address, and brings them back to the invitation. */
export async function signOutForInvitationAction(_prev: FormState, form: FormData): Promise<FormState> {
  const token = tokenOf(form);
  await signOut({ redirectTo: isInvitationToken(token) ? `/invite/${token}` : "/login" });
  return {};
}

/** A member who opened an invitation to an organization they are in already goes there. */
export async function openOrganizationAction(_prev: FormState, form: FormData): Promise<FormState> {
  try {
    const orgId = String(form.get("orgId") ?? "");
    await switchOrganization(getDb(), { userId: await signedInUserId(), orgId });
    await unstable_update({ orgId });
  } catch (error) {
    return toActionError(error, { action: "openOrganization" });
  }
  revalidatePath("/", "layout");
  redirect("/");
}
