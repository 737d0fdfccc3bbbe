import { z } from "zod";

/** A person's answer to a server's sampling request asked in a page: a reply of their own, or no. */
export const samplingAnswerSchema = z.discriminatedUnion("action", [
  z.object({
    action: z.literal("reply"),
    text: z.string().min(1, { error: "Write the reply, or decline." }).max(5000),
  }),
  z.object({ action: z.literal("decline") }),
]);

export type SamplingAnswer = z.infer<typeof samplingAnswerSchema>;
