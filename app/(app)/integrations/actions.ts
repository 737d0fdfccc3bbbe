"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import type { FormState } from "@/components/forms/form-state";
import { requireSignedInUser } from "@/lib/auth/request-context";
import { booleanArg, formArg, idArg } from "@/lib/http/action-args";
import { keptValues, serverAction } from "@/lib/http/server-action";
import { createIntegration } from "@/lib/mcp/integrations/create-integration";
import { deleteIntegration } from "@/lib/mcp/integrations/delete-integration";
import { setIntegrationEnabled } from "@/lib/mcp/integrations/set-integration-enabled";
import { updateIntegration } from "@/lib/mcp/integrations/update-integration";

const formInput = z.object({ form: formArg });
const idInput = z.object({ id: idArg });
const idFormInput = z.object({ id: idArg, form: formArg });
const setEnabledInput = z.object({ id: idArg, enabled: booleanArg });

function text(form: FormData, name: string): string | undefined {
  const value = form.get(name);
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

/** "Name: value" lines from a textarea, as header pairs. */
function headerLines(form: FormData, name: string): Record<string, string> {
  const lines = (text(form, name) ?? "")
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
  return Object.fromEntries(
    lines.map((line) => {
      const index = line.indexOf(":");
      return index > 0 ? [line.slice(0, index).trim(), line.slice(index + 1).trim()] : [line, ""];
    }),
  );
}

function prefixed(form: FormData, prefix: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [key, value] of form.entries()) {
    if (key.startsWith(prefix) && typeof value === "string") values[key.slice(prefix.length)] = value;
  }
  return values;
}

const seconds = (form: FormData) => {
  const value = text(form, "timeoutSeconds");
  return value === undefined ? undefined : Math.round(Number(value) * 1000);
};

/** The fields shown again after a refusal: never the secrets (token, headers, client secret, credentials). */
const echoedFields = [
  "name",
  "transport",
  "url",
  "authType",
  "timeoutSeconds",
  "presetKey",
  "command",
  "oauthCredentials",
  "oauthScope",
  "oauthClientId",
];

/** Only what was filled in: a blank field falls back to the saved value on the edit page. */
const keepFilled = (form: FormData) => keptValues(form, echoedFields, { filledOnly: true });

type AuthType = "none" | "bearer" | "headers" | "oauth";

/** The OAuth settings; the schema says what is wrong with any of them. */
function oauthFields(form: FormData) {
  return {
    oauthCredentials: (text(form, "oauthCredentials") ?? "organization") as "organization" | "user",
    oauthScope: text(form, "oauthScope") ?? "",
    oauthClientId: text(form, "oauthClientId") ?? "",
    oauthClientSecret: text(form, "oauthClientSecret"),
  };
}

export async function createIntegrationAction(_prev: FormState, form: FormData): Promise<FormState> {
  return serverAction({
    name: "createIntegration",
    args: formInput,
    input: { form },
    context: requireSignedInUser,
    keep: keepFilled,
    run: async ({ db, ctx }) => {
      const source = text(form, "source");
      const integration =
        source === "catalog"
          ? await createIntegration(db, ctx, {
              source: "catalog",
              presetKey: text(form, "presetKey") ?? "",
              name: text(form, "name"),
              credentials: prefixed(form, "credential:"),
              timeoutMs: seconds(form),
            })
          : text(form, "transport") === "stdio"
            ? await createIntegration(db, ctx, {
                source: "custom",
                transport: "stdio",
                name: text(form, "name") ?? "",
                command: text(form, "command") ?? "",
                args: (text(form, "args") ?? "")
                  .split("\n")
                  .map((a) => a.trim())
                  .filter(Boolean),
                timeoutMs: seconds(form),
              })
            : await createIntegration(db, ctx, {
                source: "custom",
                transport: text(form, "transport") === "sse" ? "sse" : "streamable-http",
                name: text(form, "name") ?? "",
                url: text(form, "url") ?? "",
                authType: (text(form, "authType") ?? "none") as AuthType,
                token: text(form, "token"),
                headers: headerLines(form, "headers"),
                ...oauthFields(form),
                timeoutMs: seconds(form),
              });
      return integration.id;
    },
    onSuccess: (id) => {
      revalidatePath("/integrations");
      redirect(`/integrations/${id}?test=1`);
    },
  });
}

export async function updateIntegrationAction(
  id: string,
  _prev: FormState,
  form: FormData,
): Promise<FormState> {
  return serverAction({
    name: "updateIntegration",
    args: idFormInput,
    input: { id, form },
    context: requireSignedInUser,
    keep: keepFilled,
    run: ({ db, ctx }) =>
      updateIntegration(db, ctx, id, {
        name: text(form, "name"),
        url: text(form, "url"),
        transport: text(form, "transport") as "streamable-http" | "sse" | undefined,
        authType: text(form, "authType") as AuthType | undefined,
        token: text(form, "token"),
        ...(form.has("oauthCredentials") ? oauthFields(form) : {}),
        headers: form.has("headers") ? headerLines(form, "headers") : undefined,
        credentials: prefixed(form, "credential:"),
        timeoutMs: seconds(form),
      }),
    onSuccess: () => {
      revalidatePath(`/integrations/${id}`);
      return { success: "Saved." };
    },
  });
}

export async function setEnabledAction(id: string, enabled: boolean): Promise<FormState> {
  return serverAction({
    name: "setIntegrationEnabled",
    args: setEnabledInput,
    input: { id, enabled },
    context: requireSignedInUser,
    run: ({ db, ctx }) => setIntegrationEnabled(db, ctx, id, enabled),
    onSuccess: () => {
      revalidatePath("/integrations");
      revalidatePath(`/integrations/${id}`);
      return {};
    },
  });
}

export async function deleteIntegrationAction(id: string): Promise<FormState> {
  return serverAction({
    name: "deleteIntegration",
    args: idInput,
    input: { id },
    context: requireSignedInUser,
    run: ({ db, ctx }) => deleteIntegration(db, ctx, id),
    onSuccess: () => {
      revalidatePath("/integrations");
      redirect("/integrations");
    },
  });
}
