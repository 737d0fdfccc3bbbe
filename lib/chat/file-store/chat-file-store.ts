import type { Database } from "@/db/client";
import { getEnv } from "@/lib/env";
import { databaseFileStore } from "./database-file-store";
import type { ChatFileStore } from "./file-store";
import { s3FileStore } from "./s3-file-store";

let s3: ChatFileStore | undefined;

/** The configured store of chat files' bytes: the S3-compatible store when `CHAT_FILE_S3_URL` is set, else the database. */
export function chatFileStore(db: Database): ChatFileStore {
  const env = getEnv();
  const url = env.CHAT_FILE_S3_URL;
  const accessKeyId = env.CHAT_FILE_S3_ACCESS_KEY_ID;
  const secretAccessKey = env.CHAT_FILE_S3_SECRET_ACCESS_KEY;
  // parseEnv refuses half a configuration, so the three are set together or not at all.
  if (!url || !accessKeyId || !secretAccessKey) return databaseFileStore(db);
  s3 ??= s3FileStore({ url, region: env.CHAT_FILE_S3_REGION, accessKeyId, secretAccessKey });
  return s3;
}
