import { z } from "zod";
import { publishChange } from "@/db/change-feed";
import type { Database } from "@/db/client";
import { logger } from "@/lib/logger";

/** Where changes go for 2026-07-28 clients' listen streams, which belong to no session: every instance hears them. */
export const LISTEN_EVENTS_CHANNEL = "switchboard_listen_events";

/**
 * One change, for the listen streams of an organization: lists that changed (the gateway's, and the pass-through
 * of the integration concerned, when one is), or a resource of an integration that was updated.
 */
export const listenEventSchema = z.object({
  org: z.string(),
  integration: z.string().optional(),
  lists: z.array(z.enum(["tools", "resources", "prompts"])).optional(),
  resource: z.string().optional(),
});
export type ListenEvent = z.infer<typeof listenEventSchema>;

export async function publishListenEvent(db: Database, event: ListenEvent): Promise<void> {
  try {
    await publishChange(db, LISTEN_EVENTS_CHANNEL, JSON.stringify(event));
  } catch (error) {
    // A client that listens lists again when it next connects; nothing else depends on this.
    logger.warn("change not told to listeners", { orgId: event.org, err: error });
  }
}
