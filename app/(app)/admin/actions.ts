"use server";

import { revalidatePath } from "next/cache";
import { getDb } from "@/db/client";
import { requireApiContext } from "@/lib/auth/request-context";
import { toActionError } from "@/lib/errors";
import { setRecordToolPayloads } from "@/lib/orgs/organizations";
import { setUserDisabled } from "@/lib/platform/platform-admin";

export async function setUserDisabledAction(userId: string, disabled: boolean): Promise<{ error?: string }> {
  try {
    await setUserDisabled(getDb(), await requireApiContext(), userId, disabled);
  } catch (error) {
    return toActionError(error, { action: "setUserDisabled" });
  }
  revalidatePath("/admin/users");
  return {};
}

export async function setRecordToolPayloadsAction(enabled: boolean): Promise<{ error?: string }> {
  try {
    await setRecordToolPayloads(getDb(), await requireApiContext(), enabled);
  } catch (error) {
    return toActionError(error, { action: "setRecordToolPayloads" });
  }
  revalidatePath("/admin");
  return {};
}
