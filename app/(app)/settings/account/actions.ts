"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { AuthError } from "next-auth";
import { z } from "zod";
import type { FormState } from "@/components/forms/form-state";
import { getDb } from "@/db/client";
import { changePassword } from "@/lib/auth/change-password";
import { signIn } from "@/lib/auth/nextauth";
import { requireSignedInUserId } from "@/lib/auth/request-context";
import { clientAddress } from "@/lib/auth/sign-in-throttle";
import { toActionError } from "@/lib/errors";
import { formArg, invalidActionArgs } from "@/lib/http/action-args";

const formInput = z.object({ form: formArg });

/** Sets a new password, which ends every session of the user; this browser signs in again with the new one. */
export async function changePasswordAction(_prev: FormState, form: FormData): Promise<FormState> {
  const invalid = invalidActionArgs(formInput, { form });
  if (invalid) return invalid;
  const newPassword = form.get("newPassword");
  let email: string;
  try {
    ({ email } = await changePassword(
      getDb(),
      { userId: await requireSignedInUserId(), currentPassword: form.get("currentPassword"), newPassword },
      { address: clientAddress(await headers()) },
    ));
  } catch (error) {
    return toActionError(error, { action: "changePassword" });
  }
  try {
    await signIn("credentials", {
      email,
      password: String(newPassword),
      redirectTo: "/settings/account?password=changed",
    });
  } catch (error) {
    // The password did change; should signing in again be refused (too many attempts), sign in by hand.
    if (error instanceof AuthError) redirect("/login");
    throw error; // the redirect after signing in
  }
  return {};
}
