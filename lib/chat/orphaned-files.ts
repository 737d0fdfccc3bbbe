import { and, lt, notExists, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { chatFiles, chatMessages } from "@/db/schema";
import { getEnv } from "@/lib/env";
import { logger } from "@/lib/logger";
import { deleteGoneChatFileObjects } from "./file-store/deleted-objects";

const HOUR_MS = 60 * 60_000;

/**
 * Deletes the files uploaded longer ago than the grace period that no stored message of their own conversation
 * attaches: uploaded and never sent, or removed from the composer before sending. Their bytes go with them, from
 * the row or from the S3-compatible store. Returns how many went.
 */
export async function sweepOrphanedChatFiles(
  db: Database,
  options: { now?: Date; graceMs?: number } = {},
): Promise<number> {
  const now = options.now ?? new Date();
  const graceMs = options.graceMs ?? getEnv().CHAT_FILE_ORPHAN_TTL_HOURS * HOUR_MS;
  const deleted = await db
    .delete(chatFiles)
    .where(
      and(
        lt(chatFiles.createdAt, new Date(now.getTime() - graceMs)),
        notExists(
          db
            .select({ one: sql`1` })
            .from(chatMessages)
            .where(
              and(
                sql`${chatMessages.conversationId} = ${chatFiles.conversationId}`,
                // A message attaches a file by a `data-file` part naming its id (see file-attachments.ts).
                sql`${chatMessages.parts} @> jsonb_build_array(jsonb_build_object('type', 'data-file', 'data', jsonb_build_object('fileId', ${chatFiles.id}::text)))`,
              ),
            ),
        ),
      ),
    )
    .returning({ id: chatFiles.id });
  // These rows' objects in an S3-compatible store were queued as the rows went, with any a failed call left.
  await deleteGoneChatFileObjects(db);
  return deleted.length;
}

// Swept at most once a minute per instance, on the upload path that makes orphans, like expired gateway sessions.
const SWEEP_EVERY_MS = 60_000;
const lastSweep = new WeakMap<Database, number>();

/** Sweeps orphaned files now and then; a failed sweep is logged and tried again a minute later. */
export async function sweepOrphanedChatFilesNowAndThen(db: Database): Promise<void> {
  const now = Date.now();
  if (now - (lastSweep.get(db) ?? 0) < SWEEP_EVERY_MS) return;
  lastSweep.set(db, now);
  try {
    const deleted = await sweepOrphanedChatFiles(db);
    if (deleted > 0) logger.info("orphaned chat files deleted", { deleted });
  } catch (error) {
    logger.warn("orphaned chat files not swept", { err: error });
  }
}
