"use server";

import { AuthError } from "next-auth";
import type { FormState } from "@/components/forms/form-state";
import { getDb } from "@/db/client";
import { signIn } from "@/lib/auth/nextauth";
import { TooManySignInAttempts } from "@/lib/auth/providers";
import { registerUser } from "@/lib/auth/users";
import { getEnv } from "@/lib/env";
import { toActionError } from "@/lib/errors";
import { safeRedirectPath } from "@/lib/http/safe-redirect";

export async function loginAction(_prev: FormState, form: FormData): Promise<FormState> {
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
  const values = {
    name: String(form.get("name") ?? ""),
    email: String(form.get("email") ?? ""),
    organizationName: String(form.get("organizationName") ?? ""),
  };
  if (!getEnv().ALLOW_REGISTRATION)
    return { error: "Registration is closed. Ask an administrator to add you." };
  try {
    await registerUser(getDb(), { ...values, password: form.get("password") });
  } catch (error) {
    return { ...toActionError(error, { action: "register" }), values };
  }
  await signIn("credentials", {
    email: values.email,
    password: String(form.get("password")),
    redirectTo: "/",
  });
  return {};
}
