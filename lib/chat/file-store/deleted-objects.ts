import { and, asc, eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import { chatFileDeletedObjects } from "@/db/schema";
import { logger } from "@/lib/logger";
import { chatFileStore } from "./chat-file-store";

const BATCH = 100;
const AT_ONCE = 8;

/**
 * Deletes from the S3-compatible store the objects whose `chat_files` row is gone (queued by the database's trigger,
 * whatever deleted the row: the orphan sweep, a deleted conversation, user or organization). Never throws: a store
 * that fails leaves the rest queued for the next call, which is logged. Returns how many objects went.
 */
export async function deleteGoneChatFileObjects(db: Database): Promise<number> {
  const store = chatFileStore(db);
  // With the database as the store, the queue waits for the S3 store that holds those objects to be configured again.
  if (store.kind !== "s3") return 0;
  let deleted = 0;
  try {
    for (;;) {
      const gone = await db
        .select({ orgId: chatFileDeletedObjects.organizationId, fileId: chatFileDeletedObjects.fileId })
        .from(chatFileDeletedObjects)
        .orderBy(asc(chatFileDeletedObjects.deletedAt))
        .limit(BATCH);
      for (let start = 0; start < gone.length; start += AT_ONCE) {
        // Every delete of the batch ends before this returns (a failed one does not leave the others running).
        const outcomes = await Promise.allSettled(
          gone.slice(start, start + AT_ONCE).map(async (key) => {
            await store.delete(key);
            await db
              .delete(chatFileDeletedObjects)
              .where(
                and(
                  eq(chatFileDeletedObjects.organizationId, key.orgId),
                  eq(chatFileDeletedObjects.fileId, key.fileId),
                ),
              );
            deleted += 1;
          }),
        );
        const failed = outcomes.find((outcome) => outcome.status === "rejected");
        if (failed) throw failed.reason;
      }
      if (gone.length < BATCH) break;
    }
  } catch (error) {
    logger.warn("deleted chat files' objects not all removed from the file store", { deleted, err: error });
  }
  return deleted;
}
