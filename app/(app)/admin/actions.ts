"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { requireSignedInUser } from "@/lib/auth/request-context";
import { booleanArg, idArg } from "@/lib/http/action-args";
import { serverAction } from "@/lib/http/server-action";
import { setRecordToolPayloads } from "@/lib/orgs/organizations";
import { setUserDisabled } from "@/lib/platform/platform-admin";

const userDisabledInput = z.object({ userId: idArg, disabled: booleanArg });
const recordPayloadsInput = z.object({ enabled: booleanArg });

export async function setUserDisabledAction(userId: string, disabled: boolean): Promise<{ error?: string }> {
  return serverAction({
    name: "setUserDisabled",
    args: userDisabledInput,
    input: { userId, disabled },
    context: requireSignedInUser,
    run: ({ db, ctx }) => setUserDisabled(db, ctx, userId, disabled),
    onSuccess: () => {
      revalidatePath("/admin/users");
      return {};
    },
  });
}

export async function setRecordToolPayloadsAction(enabled: boolean): Promise<{ error?: string }> {
  return serverAction({
    name: "setRecordToolPayloads",
    args: recordPayloadsInput,
    input: { enabled },
    context: requireSignedInUser,
    run: ({ db, ctx }) => setRecordToolPayloads(db, ctx, enabled),
    onSuccess: () => {
      revalidatePath("/admin");
      return {};
    },
  });
}
