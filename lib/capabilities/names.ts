import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { z } from "zod";
import { MAX_TOOL_NAME } from "@/lib/tools/tool-names";
import { compileToolSchema } from "@/lib/tools/validate-args";

import { CAPABILITY_TOOL_PREFIX, CAPABILITY_TOOL_SEPARATOR, capabilityToolName } from "./tool-name";

const PART = /^[a-z0-9_]+$/;

/** `capabilityToolName` computed by the database from the two columns, to look a capability up by its tool name. */
export function capabilityToolNameSql(namespace: SQLWrapper, action: SQLWrapper): SQL<string> {
  return sql<string>`${CAPABILITY_TOOL_PREFIX}::text || ${namespace} || ${CAPABILITY_TOOL_SEPARATOR}::text || ${action}`;
}

/** A JSON Schema a tool declares (arguments or result): an object's, and one that compiles. */
function objectSchema(label: string) {
  return (schema: Record<string, unknown> | null, issue: z.RefinementCtx) => {
    if (schema === null) return;
    if (schema.type !== "object") {
      issue.addIssue({ code: "custom", message: `The ${label} must have "type": "object".` });
      return;
    }
    const problem = compileToolSchema(schema);
    if (problem) issue.addIssue({ code: "custom", message: `The ${label} is not valid: ${problem}` });
  };
}

export const capabilityInputSchema = z
  .object({
    namespace: z
      .string({ error: "Enter a namespace." })
      .trim()
      .min(1, { error: "Enter a namespace." })
      .regex(PART, { error: "Use lowercase letters, digits and _ in the namespace." }),
    action: z
      .string({ error: "Enter an action." })
      .trim()
      .min(1, { error: "Enter an action." })
      .regex(PART, { error: "Use lowercase letters, digits and _ in the action." }),
    description: z
      .string()
      .trim()
      .max(1000, { error: "Use at most 1,000 characters for the description." })
      .default(""),
    parametersSchema: z
      .record(z.string(), z.unknown(), { error: "The parameters schema must be a JSON object." })
      .default({ type: "object", properties: {} })
      .superRefine(objectSchema("parameters schema")),
    /** Null: the capability declares no output schema. */
    outputSchema: z
      .record(z.string(), z.unknown(), { error: "The output schema must be a JSON object." })
      .nullable()
      .default(null)
      .superRefine(objectSchema("output schema")),
    /** The MCP hints it declares; null: none (clients then assume it may change and destroy things). */
    annotations: z
      .strictObject(
        {
          readOnlyHint: z.boolean().optional(),
          destructiveHint: z.boolean().optional(),
          idempotentHint: z.boolean().optional(),
          openWorldHint: z.boolean().optional(),
        },
        {
          error:
            "The annotations are readOnlyHint, destructiveHint, idempotentHint and openWorldHint, each true or false.",
        },
      )
      .nullable()
      .default(null),
    code: z
      .string({ error: "Enter the code." })
      .min(1, { error: "Enter the code." })
      .max(100_000, { error: "Use at most 100,000 characters of code." }),
  })
  .superRefine((input, issue) => {
    const name = capabilityToolName(input.namespace, input.action);
    if (name.length > MAX_TOOL_NAME) {
      issue.addIssue({
        code: "custom",
        path: ["action"],
        message: `The tool name ${name} has ${name.length} characters; shorten the namespace or action to fit ${MAX_TOOL_NAME}.`,
      });
    }
  });

export type CapabilityInput = z.infer<typeof capabilityInputSchema>;
