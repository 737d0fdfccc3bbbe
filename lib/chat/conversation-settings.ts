import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "@/db/client";
import { conversations } from "@/db/schema";
import type { UserContext } from "@/lib/auth/context";
import { TOOL_NAME_PATTERN } from "@/lib/tools/tool-names";
import { parseInput } from "@/lib/validation";
import { getConversation } from "./conversations";

const toolName = z.string().regex(TOOL_NAME_PATTERN, { error: "That is not a tool name." });

export const toolTogglesSchema = z.object({
  disabledIntegrationIds: z
    .array(z.uuid({ error: "Integration ids are UUIDs." }))
    .max(500, { error: "Too many integrations." }),
  disabledTools: z.array(toolName).max(5000, { error: "Too many tools." }),
});

/** Which integrations and single tools the user switched off for one of their conversations. */
export async function setToolToggles(db: Database, ctx: UserContext, id: string, input: unknown) {
  const conversation = await getConversation(db, ctx, id);
  const toggles = parseInput(toolTogglesSchema, input);
  await db
    .update(conversations)
    .set({
      disabledIntegrationIds: [...new Set(toggles.disabledIntegrationIds)],
      disabledTools: [...new Set(toggles.disabledTools)],
    })
    .where(eq(conversations.id, conversation.id));
}

/** Lets a tool run without asking again for the rest of the conversation. */
export async function allowToolForConversation(db: Database, ctx: UserContext, id: string, name: unknown) {
  const conversation = await getConversation(db, ctx, id);
  const tool = parseInput(toolName, name);
  if (conversation.approvedTools.includes(tool)) return;
  // Appended in SQL so two approvals in quick succession both stick.
  await db
    .update(conversations)
    .set({ approvedTools: sql`${conversations.approvedTools} || ${JSON.stringify([tool])}::jsonb` })
    .where(eq(conversations.id, conversation.id));
}
