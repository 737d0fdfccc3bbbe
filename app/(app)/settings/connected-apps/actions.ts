"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import type { FormState } from "@/components/forms/form-state";
import { requireSignedInUser } from "@/lib/auth/request-context";
import { formArg, idArg } from "@/lib/http/action-args";
import { serverAction } from "@/lib/http/server-action";
import { revokeGrant } from "@/lib/oauth-server/grants";
import { setOrganizationOAuthPolicy } from "@/lib/oauth-server/org-policy";

const PAGE = "/settings/connected-apps";

export async function revokeGrantAction(id: string): Promise<FormState> {
  return serverAction({
    name: "revokeGrant",
    args: z.object({ id: idArg }),
    input: { id },
    context: requireSignedInUser,
    run: ({ db, ctx }) => revokeGrant(db, ctx, id),
    onSuccess: () => {
      revalidatePath(PAGE);
      return {};
    },
  });
}

/** The organization's OAuth client switch and allowed redirect hosts (comma- or line-separated; blank: any). */
export async function setOAuthPolicyAction(_prev: FormState, form: FormData): Promise<FormState> {
  return serverAction({
    name: "setOAuthPolicy",
    args: z.object({ form: formArg }),
    input: { form },
    context: requireSignedInUser,
    keep: ["redirectHosts"],
    run: ({ db, ctx }) => {
      const hosts = String(form.get("redirectHosts") ?? "")
        .split(/[\s,]+/)
        .filter(Boolean);
      return setOrganizationOAuthPolicy(db, ctx, {
        enabled: form.get("enabled") === "on",
        redirectHosts: form.get("limitHosts") === "on" ? hosts : null,
      });
    },
    onSuccess: ({ ended }) => {
      revalidatePath(PAGE);
      return {
        success: `Saved.${ended ? ` ${ended} connected app${ended === 1 ? " was" : "s were"} disconnected.` : ""}`,
      };
    },
  });
}
