import { z } from "zod";

export const chatRequestSchema = z.object({
  id: z.string({ error: "id (the conversation) is required" }).min(1),
  messages: z
    .array(
      z
        .object({
          id: z.string(),
          role: z.enum(["user", "assistant", "system"]),
          parts: z.array(z.record(z.string(), z.unknown()).and(z.object({ type: z.string() }))),
        })
        .passthrough(),
    )
    .min(1, { error: "messages must not be empty" })
    .max(500),
  refresh: z.boolean().optional(),
});
