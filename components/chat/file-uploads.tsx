"use client";

import { FileText, Loader2, X } from "lucide-react";
import { useCallback, useState } from "react";
import type { FileAttachment } from "@/lib/chat/file-attachment-schema";
import { fileAttachmentSchema } from "@/lib/chat/file-attachment-schema";
import { formatFileSize } from "@/lib/chat/file-types";

type Upload = { key: string; name: string; size: number } & (
  | { status: "uploading" }
  | { status: "ready"; file: FileAttachment }
);

/** Where an attached file is served, for its owner only. */
export const fileUrl = (conversationId: string, fileId: string) =>
  `/api/chat/${conversationId}/files/${fileId}`;

async function refusal(response: Response): Promise<string> {
  const body = (await response.json().catch(() => null)) as { error?: unknown } | null;
  return typeof body?.error === "string" ? body.error : `The upload failed (${response.status}).`;
}

/**
 * Files the person attaches before sending: each uploaded at once (its bytes never go with the message), listed
 * with its size, removable; a refused file is named with the server's reason.
 */
export function useFileUploads(conversationId: string) {
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [errors, setErrors] = useState<string[]>([]);

  const add = useCallback(
    (files: Iterable<File>) => {
      for (const file of files) {
        const key = crypto.randomUUID();
        const name = file.name || "pasted file";
        setUploads((all) => [...all, { key, name, size: file.size, status: "uploading" }]);
        void fetch(`/api/chat/${conversationId}/files?name=${encodeURIComponent(name)}`, {
          method: "POST",
          headers: { "content-type": "application/octet-stream" },
          body: file,
        })
          .then(async (response) => {
            if (!response.ok) throw new Error(await refusal(response));
            const stored = fileAttachmentSchema.parse(await response.json());
            setUploads((all) =>
              all.map((u) =>
                u.key === key
                  ? { key, name: stored.name, size: stored.size, status: "ready", file: stored }
                  : u,
              ),
            );
          })
          .catch((error: unknown) => {
            setUploads((all) => all.filter((u) => u.key !== key));
            const reason = error instanceof Error ? error.message : "The upload failed.";
            setErrors((all) => [...all, `${name} was not attached: ${reason}`]);
          });
      }
    },
    [conversationId],
  );

  return {
    uploads,
    errors,
    add,
    remove: (key: string) => setUploads((all) => all.filter((u) => u.key !== key)),
    clearErrors: () => setErrors([]),
    reset: () => {
      setUploads([]);
      setErrors([]);
    },
    ready: uploads.flatMap((u) => (u.status === "ready" ? [u.file] : [])),
    uploading: uploads.some((u) => u.status === "uploading"),
  };
}

/** The files attached to the message being written, each with its size and a button to remove it. */
export function AttachedFiles({ uploads, onRemove }: { uploads: Upload[]; onRemove: (key: string) => void }) {
  if (uploads.length === 0) return null;
  return (
    <ul className="flex flex-wrap gap-2" aria-label="Attached files">
      {uploads.map((u) => (
        <li
          key={u.key}
          className="flex min-w-0 max-w-full items-center gap-1.5 rounded-full border bg-muted px-2.5 py-0.5 text-xs"
          data-testid="attached-file"
        >
          {u.status === "uploading" ? (
            <Loader2 className="h-3 w-3 shrink-0 animate-spin" aria-label="Uploading" />
          ) : (
            <FileText className="h-3 w-3 shrink-0" aria-hidden />
          )}
          <span className="truncate">{u.name}</span>
          <span className="shrink-0 text-muted-foreground">{formatFileSize(u.size)}</span>
          <button
            type="button"
            aria-label={`Remove ${u.name}`}
            className="rounded-full p-0.5 hover:bg-background"
            onClick={() => onRemove(u.key)}
          >
            <X className="h-3 w-3" />
          </button>
        </li>
      ))}
    </ul>
  );
}

/** A file attached to a sent message: a thumbnail for an image, a chip with its name and size for another file. */
export function FileAttachmentView({ conversationId, data }: { conversationId: string; data: unknown }) {
  const parsed = fileAttachmentSchema.safeParse(data);
  if (!parsed.success) return null;
  const file = parsed.data;
  const url = fileUrl(conversationId, file.fileId);
  if (file.mediaType.startsWith("image/"))
    return (
      <a href={url} target="_blank" rel="noreferrer" className="block w-fit" data-testid="message-file">
        {/* biome-ignore lint/performance/noImgElement: the file is the user's own upload, served as it is */}
        <img
          src={url}
          alt={file.name}
          className="max-h-48 min-h-12 min-w-12 max-w-full rounded-md border bg-background object-contain"
          loading="lazy"
        />
      </a>
    );
  return (
    <a
      href={url}
      download={file.name}
      className="flex w-fit max-w-full min-w-0 items-center gap-1.5 rounded-full border border-primary-foreground/40 px-2.5 py-0.5 text-xs underline-offset-2 hover:underline"
      data-testid="message-file"
    >
      <FileText className="h-3 w-3 shrink-0" aria-hidden />
      <span className="truncate">{file.name}</span>
      <span className="shrink-0 opacity-80">{formatFileSize(file.size)}</span>
    </a>
  );
}
