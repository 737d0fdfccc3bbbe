import { AppError } from "@/lib/errors";

/** Where a chat file's bytes are kept, by key; `chat_files` keeps the rest (owner, conversation, name, type, size). */
export interface ChatFileStore {
  /** `database` keeps the bytes in the file's row; `s3` in an S3-compatible store. */
  readonly kind: "database" | "s3";
  put(key: ChatFileKey, bytes: Buffer): Promise<void>;
  get(key: ChatFileKey): Promise<Buffer>;
  /** Deletes the bytes; bytes already gone are not an error. */
  delete(key: ChatFileKey): Promise<void>;
}

/** A file's place in a store: always within its organization. */
export interface ChatFileKey {
  orgId: string;
  fileId: string;
}

/** The object's name: `<organization id>/<file id>`, so one organization's files share a prefix. */
export const objectName = (key: ChatFileKey) => `${key.orgId}/${key.fileId}`;

/** The store did not answer (network, timeout): 503, with nothing of the store's address or credentials. */
export const fileStoreUnavailable = (cause: unknown) =>
  new AppError("unavailable:file_store", "The file store did not answer. Try again in a moment.", { cause });

/** The store answered with an error: 502. */
export const fileStoreFailed = (cause: unknown) =>
  new AppError(
    "bad_gateway:file_store",
    "The file store could not keep or return the file. Try again later.",
    {
      cause,
    },
  );
