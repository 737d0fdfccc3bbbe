"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { getDb } from "@/db/client";
import { requireApiContext } from "@/lib/auth/request-context";
import { toActionError } from "@/lib/errors";
import { booleanArg, idArg, invalidActionArgs } from "@/lib/http/action-args";
import { setRecordToolPayloads } from "@/lib/orgs/organizations";
import { setUserDisabled } from "@/lib/platform/platform-admin";

const userDisabledInput = z.object({ userId: idArg, disabled: booleanArg });
const recordPayloadsInput = z.object({ enabled: booleanArg });

export async function setUserDisabledAction(userId: string, disabled: boolean): Promise<{ error?: string }> {
  const invalid = invalidActionArgs(userDisabledInput, { userId, disabled });
  if (invalid) return invalid;
  try {
    await setUserDisabled(getDb(), await requireApiContext(), userId, disabled);
  } catch (error) {
    return toActionError(error, { action: "setUserDisabled" });
  }
  revalidatePath("/admin/users");
  return {};
}

export async function setRecordToolPayloadsAction(enabled: boolean): Promise<{ error?: string }> {
  const invalid = invalidActionArgs(recordPayloadsInput, { enabled });
  if (invalid) return invalid;
  try {
    await setRecordToolPayloads(getDb(), await requireApiContext(), enabled);
  } catch (error) {
    return toActionError(error, { action: "setRecordToolPayloads" });
  }
  revalidatePath("/admin");
  return {};
}
