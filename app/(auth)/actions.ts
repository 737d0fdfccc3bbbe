"use server";

import { AuthError } from "next-auth";
import { z } from "zod";
import type { FormState } from "@/components/forms/form-state";
import { getDb } from "@/db/client";
import { signIn } from "@/lib/auth/nextauth";
import { TooManySignInAttempts } from "@/lib/auth/providers";
import { registerAccount } from "@/lib/auth/register-account";
import { getEnv } from "@/lib/env";
import { toActionError } from "@/lib/errors";
import { formArg, invalidActionArgs } from "@/lib/http/action-args";
import { appOrigin } from "@/lib/http/app-origin";
import { safeRedirectPath } from "@/lib/http/safe-redirect";

const formInput = z.object({ form: formArg });

export async function loginAction(_prev: FormState, form: FormData): Promise<FormState> {
  const invalid = invalidActionArgs(formInput, { form });
  if (invalid) return invalid;
  const email = String(form.get("email") ?? "");
  try {
    await signIn("credentials", {
      email,
      password: String(form.get("password") ?? ""),
      redirectTo: safeRedirectPath(form.get("callbackUrl")),
    });
    return {};
  } catch (error) {
    if (error instanceof TooManySignInAttempts) return { error: error.userMessage, values: { email } };
    if (error instanceof AuthError) {
      return { error: "That email and password do not match an account.", values: { email } };
    }
    throw error; // the redirect after a successful sign-in
  }
}

export async function registerAction(_prev: FormState, form: FormData): Promise<FormState> {
  const invalid = invalidActionArgs(formInput, { form });
  if (invalid) return invalid;
  const values = {
    name: String(form.get("name") ?? ""),
    email: String(form.get("email") ?? ""),
    organizationName: String(form.get("organizationName") ?? ""),
  };
  if (!getEnv().ALLOW_REGISTRATION)
    return { error: "Registration is closed. Ask an administrator to add you." };
  try {
    // The same answer for a new address and a taken one, and no sign-in: the person signs in next, as anyone does.
    const { email } = await registerAccount(
      getDb(),
      { ...values, password: form.get("password") },
      { origin: await appOrigin() },
    );
    return { success: registeredMessage(email, !!getEnv().SMTP_URL), values: { email } };
  } catch (error) {
    return { ...toActionError(error, { action: "register" }), values };
  }
}

function registeredMessage(email: string, mails: boolean): string {
  const owner = mails ? " (we mailed its owner)" : "";
  return `Done. Sign in with ${email} and the password you just chose. If that address already had an account, nothing about it changed${owner}: sign in with its own password.`;
}
