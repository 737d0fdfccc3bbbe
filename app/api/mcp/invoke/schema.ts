import { z } from "zod";

export const invokeRequestSchema = z
  .object(
    {
      tool_name: z
        .string({ error: "tool_name is required" })
        .min(1, { error: "tool_name is required" })
        .max(200, { error: "tool_name is at most 200 characters" }),
      params: z.record(z.string(), z.unknown(), { error: "params must be a JSON object" }).default({}),
    },
    { error: 'The body must be a JSON object like {"tool_name": "…", "params": {…}}.' },
  )
  .strict();
