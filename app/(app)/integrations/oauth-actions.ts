"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { getDb } from "@/db/client";
import { requireApiContext } from "@/lib/auth/request-context";
import { toActionError } from "@/lib/errors";
import { booleanArg, idArg, invalidActionArgs } from "@/lib/http/action-args";
import { oauthRedirectUrl } from "@/lib/http/app-origin";
import { startOAuthConnection } from "@/lib/mcp/oauth/connect-integration";
import { disconnectOAuth } from "@/lib/mcp/oauth/disconnect-integration";

const connectionInput = z.object({ id: idArg, personal: booleanArg });

/** Starts connecting: the browser is then sent to the provider's consent page at the returned address. */
export async function startOAuthAction(
  id: string,
  personal: boolean,
): Promise<{ authorizationUrl?: string; error?: string }> {
  const invalid = invalidActionArgs(connectionInput, { id, personal });
  if (invalid) return { error: invalid.error };
  try {
    const ctx = await requireApiContext();
    return await startOAuthConnection(getDb(), ctx, id, { personal, redirectUrl: await oauthRedirectUrl() });
  } catch (error) {
    return { error: toActionError(error, { action: "startOAuth" }).error };
  }
}

export async function disconnectOAuthAction(id: string, personal: boolean): Promise<{ error?: string }> {
  const invalid = invalidActionArgs(connectionInput, { id, personal });
  if (invalid) return { error: invalid.error };
  try {
    await disconnectOAuth(getDb(), await requireApiContext(), id, { personal });
  } catch (error) {
    return { error: toActionError(error, { action: "disconnectOAuth" }).error };
  }
  revalidatePath(`/integrations/${id}`);
  revalidatePath("/integrations");
  return {};
}
