"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import type { FormState } from "@/components/forms/form-state";
import { toolAccessFromForm } from "@/lib/api-keys/tool-access-schema";
import { requireSignedInUser } from "@/lib/auth/request-context";
import { formArg } from "@/lib/http/action-args";
import { appOrigin } from "@/lib/http/app-origin";
import { serverAction } from "@/lib/http/server-action";
import { approveAuthorization, denyAuthorization } from "@/lib/oauth-server/consent";

const formInput = z.object({ form: formArg });
const text = (form: FormData, name: string) => String(form.get(name) ?? "");

/** Allows the client as the form says, then sends the browser back to it with a code. */
export async function approveConsentAction(_prev: FormState, form: FormData): Promise<FormState> {
  return serverAction({
    name: "approveConsent",
    args: formInput,
    input: { form },
    context: requireSignedInUser,
    run: async ({ db, ctx }) =>
      approveAuthorization(
        db,
        ctx,
        text(form, "request"),
        {
          orgId: text(form, "orgId"),
          scope: toolAccessFromForm(form, "the app"),
          metaToolsOnly: form.get("metaToolsOnly") === "on",
        },
        await appOrigin(),
      ),
    onSuccess: (url) => redirect(url),
  });
}

/** Refuses the client, which hears access_denied at its redirect URI. */
export async function denyConsentAction(_prev: FormState, form: FormData): Promise<FormState> {
  return serverAction({
    name: "denyConsent",
    args: formInput,
    input: { form },
    context: requireSignedInUser,
    run: async ({ db }) => denyAuthorization(db, text(form, "request"), await appOrigin()),
    onSuccess: (url) => redirect(url),
  });
}
