import { z } from "zod";
import { builtinTools } from "@/lib/tools/builtin";
import { DEFAULT_TOOL_APPROVAL, toolApprovalSchema } from "./tool-approval-schema";

const builtinNames = builtinTools.map((tool) => tool.name);

/** An agent as owners and admins edit it; each rule has the message the form shows. */
export const agentInputSchema = z.object({
  name: z
    .string({ error: "Enter a name." })
    .trim()
    .min(1, { error: "Enter a name." })
    .max(80, { error: "Use at most 80 characters for the name." }),
  instructions: z
    .string()
    .max(20_000, { error: "Use at most 20,000 characters for the instructions." })
    .default(""),
  model: z
    .string()
    .trim()
    .max(200, { error: "Use at most 200 characters for the model name." })
    .refine((value) => !/\s/.test(value), {
      error: "A model name has no spaces, like gpt-4o-mini or llama3.1.",
    })
    .transform((value) => (value === "" ? null : value))
    .nullable()
    .default(null),
  /** Null: every enabled integration of the organization. */
  mcpIntegrationIds: z
    .array(z.string(), { error: "Choose the integrations." })
    .max(200, { error: "Choose at most 200 integrations." })
    .nullable()
    .default(null),
  /** Null: every capability of the organization, including ones added later. */
  capabilityIds: z
    .array(z.string(), { error: "Choose the capabilities." })
    .max(500, { error: "Choose at most 500 capabilities." })
    .nullable()
    .default(null),
  builtinTools: z
    .array(
      z.string().refine((name) => builtinNames.includes(name), { error: "That is not a built-in tool." }),
      { error: "Choose the built-in tools." },
    )
    .default([]),
  toolApproval: toolApprovalSchema.default(DEFAULT_TOOL_APPROVAL),
});

export type AgentInput = z.infer<typeof agentInputSchema>;
