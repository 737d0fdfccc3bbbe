"use server";

import { AuthError } from "next-auth";
import { z } from "zod";
import type { FormState } from "@/components/forms/form-state";
import { signInWithPassword } from "@/lib/auth/nextauth";
import { TooManySignInAttempts } from "@/lib/auth/providers";
import { registerAccount } from "@/lib/auth/register-account";
import { getEnv } from "@/lib/env";
import { formArg } from "@/lib/http/action-args";
import { appOrigin } from "@/lib/http/app-origin";
import { safeRedirectPath } from "@/lib/http/safe-redirect";
import { anyone, serverAction } from "@/lib/http/server-action";

const formInput = z.object({ form: formArg });

export async function loginAction(_prev: FormState, form: FormData): Promise<FormState> {
  return serverAction({
    name: "login",
    args: formInput,
    input: { form },
    context: anyone,
    run: () => ({
      email: String(form.get("email") ?? ""),
      password: String(form.get("password") ?? ""),
      redirectTo: safeRedirectPath(form.get("callbackUrl")),
    }),
    onSuccess: signInFromForm,
  });
}

/**
 * A sign-in answers by throwing: the redirect when it signs in, an AuthError when it refuses, which
 * becomes the form's message here (a failure of our own is thrown on, as the sign-in page has always had it).
 */
async function signInFromForm(credentials: {
  email: string;
  password: string;
  redirectTo: string;
}): Promise<FormState> {
  try {
    return await signInWithPassword(credentials, credentials.redirectTo);
  } catch (error) {
    const values = { email: credentials.email };
    if (error instanceof TooManySignInAttempts) return { error: error.userMessage, values };
    if (error instanceof AuthError)
      return { error: "That email and password do not match an account.", values };
    throw error; // the redirect after a successful sign-in
  }
}

export async function registerAction(_prev: FormState, form: FormData): Promise<FormState> {
  return serverAction({
    name: "register",
    args: formInput,
    input: { form },
    context: anyone,
    keep: ["name", "email", "organizationName"],
    run: async ({ db }) => {
      if (!getEnv().ALLOW_REGISTRATION)
        return { error: "Registration is closed. Ask an administrator to add you." };
      // The same answer for a new address and a taken one, and no sign-in: the person signs in next, as anyone does.
      const { email } = await registerAccount(
        db,
        {
          name: String(form.get("name") ?? ""),
          email: String(form.get("email") ?? ""),
          organizationName: String(form.get("organizationName") ?? ""),
          password: form.get("password"),
        },
        { origin: await appOrigin() },
      );
      return { success: registeredMessage(email, !!getEnv().SMTP_URL), values: { email } };
    },
  });
}

function registeredMessage(email: string, mails: boolean): string {
  const owner = mails ? " (we mailed its owner)" : "";
  return `Done. Sign in with ${email} and the password you just chose. If that address already had an account, nothing about it changed${owner}: sign in with its own password.`;
}
