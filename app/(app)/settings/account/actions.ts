"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { AuthError } from "next-auth";
import { z } from "zod";
import type { FormState } from "@/components/forms/form-state";
import { changePassword } from "@/lib/auth/change-password";
import { signInWithPassword } from "@/lib/auth/nextauth";
import { requireSignedInUserId } from "@/lib/auth/request-context";
import { clientAddress } from "@/lib/auth/sign-in-throttle";
import { formArg } from "@/lib/http/action-args";
import { serverAction } from "@/lib/http/server-action";

const formInput = z.object({ form: formArg });

/** Sets a new password, which ends every session of the user; this browser signs in again with the new one. */
export async function changePasswordAction(_prev: FormState, form: FormData): Promise<FormState> {
  return serverAction({
    name: "changePassword",
    args: formInput,
    input: { form },
    context: requireSignedInUserId,
    run: async ({ db, ctx: userId }) => {
      const newPassword = form.get("newPassword");
      const { email } = await changePassword(
        db,
        { userId, currentPassword: form.get("currentPassword"), newPassword },
        { address: clientAddress(await headers()) },
      );
      return { email, password: String(newPassword) };
    },
    onSuccess: signInAgain,
  });
}

/** Next-auth answers a sign-in by throwing: the redirect when it signs in, an AuthError when it refuses. */
async function signInAgain({ email, password }: { email: string; password: string }): Promise<FormState> {
  try {
    await signInWithPassword({ email, password }, "/settings/account?password=changed");
  } catch (error) {
    // The password did change; should signing in again be refused (too many attempts), sign in by hand.
    if (error instanceof AuthError) redirect("/login");
    throw error; // the redirect after signing in
  }
  return {};
}
