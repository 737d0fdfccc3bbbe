import { and, eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import { chatFiles } from "@/db/schema";
import type { ChatFileStore } from "./file-store";

/** Chat files' bytes in their own `chat_files` row (`content`): they go when the row goes. */
export function databaseFileStore(db: Database): ChatFileStore {
  return {
    kind: "database",
    async put(key, bytes) {
      const stored = await db
        .update(chatFiles)
        .set({ content: bytes })
        .where(and(eq(chatFiles.id, key.fileId), eq(chatFiles.organizationId, key.orgId)))
        .returning({ id: chatFiles.id });
      if (stored.length === 0) throw new Error("The file's row is gone; its bytes were not stored.");
    },
    async get(key) {
      const [row] = await db
        .select({ content: chatFiles.content })
        .from(chatFiles)
        .where(and(eq(chatFiles.id, key.fileId), eq(chatFiles.organizationId, key.orgId)));
      if (!row?.content) throw new Error("The file's bytes are not in the database.");
      return row.content;
    },
    async delete() {
      // The bytes are in the row, deleted with it.
    },
  };
}
