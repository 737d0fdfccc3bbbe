"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { requireSignedInUser } from "@/lib/auth/request-context";
import { booleanArg, idArg } from "@/lib/http/action-args";
import { oauthRedirectUrl } from "@/lib/http/app-origin";
import { serverAction } from "@/lib/http/server-action";
import { disconnectOAuth } from "@/lib/mcp/oauth/disconnect-oauth";
import { startOAuthConnection } from "@/lib/mcp/oauth/oauth-flow";

const connectionInput = z.object({ id: idArg, personal: booleanArg });

/** Starts connecting: the browser is then sent to the provider's consent page at the returned address. */
export async function startOAuthAction(
  id: string,
  personal: boolean,
): Promise<{ authorizationUrl?: string; error?: string }> {
  return serverAction({
    name: "startOAuth",
    args: connectionInput,
    input: { id, personal },
    context: requireSignedInUser,
    run: async ({ db, ctx }) =>
      startOAuthConnection(db, ctx, id, { personal, redirectUrl: await oauthRedirectUrl() }),
  });
}

export async function disconnectOAuthAction(id: string, personal: boolean): Promise<{ error?: string }> {
  return serverAction({
    name: "disconnectOAuth",
    args: connectionInput,
    input: { id, personal },
    context: requireSignedInUser,
    run: ({ db, ctx }) => disconnectOAuth(db, ctx, id, { personal }),
    onSuccess: () => {
      revalidatePath(`/integrations/${id}`);
      revalidatePath("/integrations");
      return {};
    },
  });
}
