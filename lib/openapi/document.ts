import { detailsWithoutTasks, type ToolDescriptor } from "@/lib/tools/types";
import packageJson from "@/package.json" with { type: "json" };

const errorSchema = {
  type: "object",
  properties: {
    error: { type: "string", description: "What is wrong, in words a person can act on." },
    code: { type: "string", description: "A stable code such as bad_request:validation." },
    fields: { type: "object", additionalProperties: { type: "array", items: { type: "string" } } },
  },
  required: ["error"],
};

// What the seed's error contract answers when a tool itself fails (a 500, as the requirements fix it).
const toolFailureSchema = {
  type: "object",
  properties: {
    error: { const: "Tool execution failed" },
    tool_name: { type: "string" },
    details: { type: "string", description: "What the tool reported." },
    upstream_error: {
      type: "object",
      description: "The MCP error the tool's server answered with, as it sent it.",
      properties: { code: { type: "integer" }, message: { type: "string" }, data: {} },
      required: ["code", "message"],
    },
  },
  required: ["error", "tool_name", "details"],
};

const errorResponse = (description: string) => ({
  description,
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
});

/**
 * The OpenAPI 3.1 description of the REST API, with the parameter schema of each tool the caller can use.
 * `invokeRequest` is the JSON Schema of the invoke body, derived from the zod schema the route parses with;
 * each tool gets a variant of it whose tool_name is that tool and whose params are that tool's schema.
 */
export function buildOpenApiDocument(
  tools: ToolDescriptor[],
  serverUrl: string,
  invokeRequest: Record<string, unknown>,
) {
  const { properties = {}, ...invokeBody } = invokeRequest as {
    properties?: Record<string, Record<string, unknown>>;
    required?: string[];
  };
  const invokeVariants = tools.map((tool) => ({
    title: tool.name,
    ...invokeBody,
    properties: {
      ...properties,
      tool_name: { ...properties.tool_name, const: tool.name },
      params: { $ref: `#/components/schemas/${schemaName(tool.name)}` },
    },
    // Without params the tool gets {}, which a tool with required arguments refuses: the document says so.
    ...(hasRequiredArguments(tool) ? { required: [...(invokeBody.required ?? []), "params"] } : {}),
    ...toolExtensions(tool),
  }));
  const withOutput = tools.filter((tool) => tool.outputSchema);
  return {
    openapi: "3.1.0",
    info: {
      title: "Switchboard REST API",
      version: packageJson.version,
      description:
        "Discover and invoke the organization's tools: built-in tools, the tools of its MCP integrations and its capabilities. Authenticate with an API key of the organization; a key limited to some integrations, capabilities or the built-ins sees and calls only those. No string in a request body may hold U+0000 (NUL): such a body is refused with 400, whatever a tool's schema allows.",
    },
    servers: [{ url: serverUrl }],
    security: [{ apiKey: [] }],
    paths: {
      "/api/mcp/tools": {
        get: {
          operationId: "listTools",
          summary: "List every tool the API key may use",
          responses: {
            "200": {
              description: "The tools, each with its parameters as JSON Schema.",
              content: {
                "application/json": {
                  schema: {
                    type: "object",
                    properties: {
                      tools: {
                        type: "array",
                        items: {
                          type: "object",
                          properties: {
                            name: { type: "string" },
                            description: { type: "string" },
                            parameters: { type: "object", description: "JSON Schema of the tool's params." },
                            source: { enum: ["builtin", "integration", "capability"] },
                            title: { type: "string" },
                            annotations: {
                              type: "object",
                              description:
                                "What a client may assume of a call (MCP tool annotations: readOnlyHint, destructiveHint, idempotentHint, openWorldHint).",
                            },
                            outputSchema: {
                              type: "object",
                              description:
                                "JSON Schema of the tool's structured result, the invoke answer's body.",
                            },
                            icons: { type: "array", items: { type: "object" } },
                            execution: {
                              type: "object",
                              description:
                                "MCP's execution properties, but taskSupport: REST calls wait for a task's result.",
                            },
                            _meta: { type: "object" },
                          },
                          required: ["name", "description", "parameters"],
                        },
                      },
                    },
                  },
                },
              },
            },
            "401": errorResponse("No valid API key: missing, unknown, revoked or expired."),
            "429": errorResponse("Rate limit reached; see Retry-After."),
          },
        },
      },
      "/api/mcp/invoke": {
        post: {
          operationId: "invokeTool",
          summary: "Invoke one tool with params",
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: invokeVariants.length > 0 ? { oneOf: invokeVariants } : invokeRequest,
              },
            },
          },
          responses: {
            "200": {
              description:
                "The tool's result as JSON: its structured result (of its outputSchema, where it declares one), else its MCP content.",
              content: {
                "application/json": {
                  schema:
                    withOutput.length > 0
                      ? {
                          anyOf: [
                            ...withOutput.map((tool) => ({
                              $ref: `#/components/schemas/${resultName(tool.name)}`,
                            })),
                            contentResultSchema,
                          ],
                        }
                      : { type: "object" },
                },
              },
            },
            "400": errorResponse(
              'Unknown tool ("unknown tool", also for a tool outside the key\'s scope), invalid JSON, a NUL character in a string, or invalid params (each field named).',
            ),
            "401": errorResponse("No valid API key: missing, unknown, revoked or expired."),
            "403": errorResponse("The tool's integration is disabled."),
            "413": errorResponse("The body is too large."),
            "415": errorResponse("The body is not JSON."),
            "429": errorResponse("Rate limit reached; see Retry-After."),
            "500": {
              description:
                "The tool itself failed (a ToolFailure: details says how), or Switchboard did (an Error with a code).",
              content: {
                "application/json": {
                  schema: {
                    anyOf: [
                      { $ref: "#/components/schemas/ToolFailure" },
                      { $ref: "#/components/schemas/Error" },
                    ],
                  },
                },
              },
            },
          },
        },
      },
    },
    components: {
      securitySchemes: {
        apiKey: {
          type: "http",
          scheme: "bearer",
          description:
            "An API key created in Settings → API keys (or with apikey:create); it may expire and may be limited to some integrations, capabilities and the built-in knowledge tools.",
        },
      },
      schemas: {
        Error: errorSchema,
        ToolFailure: toolFailureSchema,
        ...Object.fromEntries(
          tools.map((tool) => [
            schemaName(tool.name),
            { description: tool.description, ...tool.inputSchema },
          ]),
        ),
        ...Object.fromEntries(
          withOutput.map((tool) => [
            resultName(tool.name),
            { description: `What ${tool.name} answers.`, ...tool.outputSchema },
          ]),
        ),
      },
    },
  };
}

function hasRequiredArguments(tool: ToolDescriptor): boolean {
  const { required } = tool.inputSchema as { required?: unknown };
  return Array.isArray(required) && required.length > 0;
}

function schemaName(toolName: string): string {
  return `Params_${toolName.replace(/[^A-Za-z0-9_.-]/g, "_")}`;
}

function resultName(toolName: string): string {
  return `Result_${toolName.replace(/[^A-Za-z0-9_.-]/g, "_")}`;
}

// A tool without an output schema answers its structured result where it gives one (the built-ins do), else its
// MCP content: any object, so the anyOf of the 200 answer never refuses such a result.
const contentResultSchema = {
  type: "object",
  description:
    "The result of a tool without an output schema: its structured result where it gives one, else {content: [...]} (its MCP content).",
  properties: { content: { type: "array", items: { type: "object" } } },
};

/** What MCP says of a tool beyond its arguments, as vendor extensions of its invoke variant. */
function toolExtensions(tool: ToolDescriptor): Record<string, unknown> {
  const { execution } = detailsWithoutTasks(tool);
  return {
    ...(tool.title ? { "x-mcp-title": tool.title } : {}),
    ...(tool.annotations ? { "x-mcp-annotations": tool.annotations } : {}),
    ...(execution ? { "x-mcp-execution": execution } : {}),
    ...(tool.outputSchema
      ? { "x-mcp-output-schema": { $ref: `#/components/schemas/${resultName(tool.name)}` } }
      : {}),
  };
}
