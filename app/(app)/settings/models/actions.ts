"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { requireSignedInUser } from "@/lib/auth/request-context";
import { setOrganizationChatModels } from "@/lib/chat/chat-models";
import { setOrganizationTextOnlyModels } from "@/lib/chat/text-only-models";
import { textArg } from "@/lib/http/action-args";
import { serverAction } from "@/lib/http/server-action";

const chatModelsInput = z.object({
  models: z.array(textArg).max(100, { error: "Allow at most 100 models." }),
});

/** Sets which models the organization's members may choose in a conversation; owners and admins only. */
export async function setChatModelsAction(models: string[]): Promise<{ error?: string; saved?: string[] }> {
  return serverAction({
    name: "setChatModels",
    args: chatModelsInput,
    input: { models },
    context: requireSignedInUser,
    run: ({ db, ctx }) => setOrganizationChatModels(db, ctx, models),
    onSuccess: (saved) => {
      revalidatePath("/settings/models");
      return { saved };
    },
  });
}

/** Sets which models cannot see images (an attached image reaches them as a note); owners and admins only. */
export async function setTextOnlyModelsAction(
  models: string[],
): Promise<{ error?: string; saved?: string[] }> {
  return serverAction({
    name: "setTextOnlyModels",
    args: chatModelsInput,
    input: { models },
    context: requireSignedInUser,
    run: ({ db, ctx }) => setOrganizationTextOnlyModels(db, ctx, models),
    onSuccess: (saved) => {
      revalidatePath("/settings/models");
      return { saved };
    },
  });
}
