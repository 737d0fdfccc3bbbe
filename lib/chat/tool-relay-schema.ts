import { z } from "zod";

/** How far a running tool call is, as its MCP server reports it: sent to the browser while the call runs. */
export const toolProgressSchema = z.object({
  toolCallId: z.string(),
  progress: z.number(),
  total: z.number().optional(),
  message: z.string().optional(),
});

export type ToolProgress = z.infer<typeof toolProgressSchema>;

/** A question a tool's MCP server asks the person in the chat (a form elicitation), while the call waits. */
export const toolQuestionSchema = z.object({
  id: z.string(),
  toolCallId: z.string(),
  message: z.string(),
  requestedSchema: z.record(z.string(), z.unknown()),
});

export type ToolQuestion = z.infer<typeof toolQuestionSchema>;

/** The person's answer to a question: the form's values, or that they declined or dismissed it. */
export const toolAnswerSchema = z.discriminatedUnion("action", [
  z.object({
    action: z.literal("accept"),
    content: z.record(
      z.string(),
      z.union([z.string(), z.number(), z.boolean(), z.array(z.string())], {
        error: "Each answer is text, a number, true or false, or a list of choices.",
      }),
    ),
  }),
  z.object({ action: z.literal("decline") }),
  z.object({ action: z.literal("cancel") }),
]);

export type ToolAnswer = z.infer<typeof toolAnswerSchema>;
