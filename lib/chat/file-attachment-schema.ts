import { z } from "zod";

/** Which uploaded file a message attaches: its id only, so the server reads the file again. */
export const fileReferenceSchema = z.object({
  fileId: z.uuid({ error: "Attach a file uploaded to this conversation." }),
});

/** A `data-file` part as stored with the user's message: what the page shows, never the file's bytes. */
export const fileAttachmentSchema = z.object({
  fileId: z.uuid(),
  name: z.string().max(200),
  mediaType: z.string().max(100),
  size: z.number().int().nonnegative(),
});

export type FileAttachment = z.infer<typeof fileAttachmentSchema>;
