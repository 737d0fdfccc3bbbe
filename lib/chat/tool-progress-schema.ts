import { z } from "zod";

/** How far a running tool call is, as its MCP server reports it: sent to the browser while the call runs. */
export const toolProgressSchema = z.object({
  toolCallId: z.string(),
  progress: z.number(),
  total: z.number().optional(),
  message: z.string().optional(),
});

export type ToolProgress = z.infer<typeof toolProgressSchema>;
