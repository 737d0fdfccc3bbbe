import { ToolSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { invokeRequestSchema } from "@/app/api/mcp/invoke/schema";
import { ValidationError } from "@/lib/errors";
import { callToolArgs, findToolsArgs, metaTools } from "@/lib/gateway/meta-tools";
import { buildOpenApiDocument } from "@/lib/openapi/document";
import { builtinTools } from "@/lib/tools/builtin";
import { knowledgeSearch, knowledgeSearchArgs } from "@/lib/tools/builtin/knowledge-search";
import {
  nodeKnowledgeRetriever,
  nodeKnowledgeRetrieverArgs,
} from "@/lib/tools/builtin/node-knowledge-retriever";
import { inputJsonSchema } from "@/lib/tools/tool-args";
import type { BuiltinTool } from "@/lib/tools/types";
import { compileToolSchema, validateToolArgs } from "@/lib/tools/validate-args";

interface Case {
  name: string;
  listed: Record<string, unknown>;
  args: z.ZodObject;
  valid: Record<string, unknown>[];
  invalid: unknown[];
}

const listedSchema = (name: string) => {
  const tool = [...builtinTools, ...metaTools].find((entry) => entry.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  return tool.inputSchema;
};

const cases: Case[] = [
  {
    name: "node_knowledge_retriever",
    listed: listedSchema("node_knowledge_retriever"),
    args: nodeKnowledgeRetrieverArgs,
    valid: [
      { node_names: ["router-1"] },
      { node_names: ["router-1", "db-primary"], include_metadata: true },
      { node_names: ["a"], include_metadata: false },
      { node_names: Array.from({ length: 100 }, (_, i) => `node-${i}`) },
      { node_names: ["x".repeat(200)] },
    ],
    invalid: [
      {},
      { node_names: [] },
      { node_names: "router-1" },
      { node_names: null },
      { node_names: [""] },
      { node_names: [1] },
      { node_names: ["x".repeat(201)] },
      { node_names: Array.from({ length: 101 }, (_, i) => `node-${i}`) },
      { node_names: ["x"], include_metadata: "yes" },
      { node_names: ["x"], surprise: 1 },
      { node_names: [], include_metadata: "yes" },
    ],
  },
  {
    name: "knowledge_search",
    listed: listedSchema("knowledge_search"),
    args: knowledgeSearchArgs,
    valid: [
      { query: "router peering" },
      { query: " padded ", limit: 1 },
      { query: "x", limit: 50 },
      { query: "x".repeat(500) },
    ],
    invalid: [
      {},
      { query: "" },
      { query: "   " },
      { query: 42 },
      { query: "x".repeat(501) },
      { query: "x", limit: 0 },
      { query: "x", limit: 51 },
      { query: "x", limit: 2.5 },
      { query: "x", limit: "10" },
      { query: "x", surprise: true },
    ],
  },
  {
    name: "find_tools",
    listed: listedSchema("find_tools"),
    args: findToolsArgs,
    valid: [
      {},
      { query: "echo" },
      { query: "echo", limit: 3 },
      { query: "", limit: 50 },
      { query: "x", more: 1 },
    ],
    invalid: [
      { query: 42 },
      { query: "x".repeat(501) },
      { limit: 0 },
      { limit: 51 },
      { limit: 2.5 },
      { limit: "3" },
    ],
  },
  {
    name: "call_tool",
    listed: listedSchema("call_tool"),
    args: callToolArgs,
    valid: [
      { name: "everything_echo" },
      { name: "everything_echo", arguments: { message: "hi" } },
      { name: "x", arguments: {} },
    ],
    invalid: [
      {},
      { name: "" },
      { name: 3 },
      { name: "x", arguments: [] },
      { name: "x", arguments: "a" },
      { name: "x", arguments: null },
    ],
  },
];

function jsonSchemaAccepts(schema: Record<string, unknown>, value: unknown): boolean {
  try {
    // ajv fills in defaults, so it gets a copy.
    validateToolArgs(schema, structuredClone(value) as Record<string, unknown>);
    return true;
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return false;
  }
}

describe("tool argument schemas have one source", () => {
  it("covers every built-in and meta-tool", () => {
    expect(cases.map((entry) => entry.name).sort()).toEqual(
      [...builtinTools, ...metaTools].map((tool) => tool.name).sort(),
    );
  });

  describe.each(cases)("$name", ({ name, listed, args, valid, invalid }) => {
    it("is listed with z.toJSONSchema of the zod schema that parses it, minus $schema", () => {
      const { $schema, ...derived } = z.toJSONSchema(args, { io: "input" });
      expect($schema).toBeDefined();
      expect(listed).toEqual(derived);
      expect(listed).not.toHaveProperty("$schema");
      expect(listed.type).toBe("object");
      expect(Object.keys(listed.properties as object)).toEqual(Object.keys(args.shape));
      // A plain JSON value: what MCP clients, the chat and the OpenAPI document receive.
      expect(JSON.parse(JSON.stringify(listed))).toEqual(listed);
    });

    it("is a valid MCP tool and a plain OpenAI function schema", () => {
      const tool = [...builtinTools, ...metaTools].find((entry) => entry.name === name);
      expect(
        ToolSchema.safeParse({ name, description: tool?.description, inputSchema: listed }).success,
      ).toBe(true);
      expect(compileToolSchema(listed)).toBeNull();
      expect(JSON.stringify(listed)).not.toMatch(/"\$(ref|defs|schema)"/);
    });

    it("says additionalProperties: false exactly when the zod object is strict", () => {
      const strict = args.safeParse({ ...valid[0], surely_not_a_field: 1 }).success === false;
      expect(listed.additionalProperties === false).toBe(strict);
    });

    it("accepts and rejects the same values as the zod schema", () => {
      for (const value of valid) {
        expect(args.safeParse(value).success, JSON.stringify(value)).toBe(true);
        expect(jsonSchemaAccepts(listed, value), JSON.stringify(value)).toBe(true);
      }
      for (const value of invalid) {
        expect(args.safeParse(value).success, JSON.stringify(value)).toBe(false);
        expect(jsonSchemaAccepts(listed, value), JSON.stringify(value)).toBe(false);
      }
    });
  });
});

describe("built-in tools keep the REST contract's messages", () => {
  // Arguments are parsed before the database is touched.
  const reject = async (tool: BuiltinTool, raw: unknown) => {
    const error = await tool.run(undefined as never, undefined as never, raw).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ValidationError);
    return error as ValidationError;
  };

  it.each([
    ["no arguments at all", undefined],
    ["no node_names", {}],
    ["an empty node_names", { node_names: [] }],
    ["a node_names that is a string", { node_names: "router-1" }],
    ["a null node_names", { node_names: null }],
  ])("answers exactly node_names is required for %s", async (_case, raw) => {
    const error = await reject(nodeKnowledgeRetriever, raw);
    expect(error.message).toBe("node_names is required");
    expect(error.status).toBe(400);
    expect(error.details?.fields?.node_names).toEqual(["node_names is required"]);
  });

  it("keeps that message when other fields are wrong too, and still names them", async () => {
    const error = await reject(nodeKnowledgeRetriever, { node_names: [], include_metadata: "yes", extra: 1 });
    expect(error.message).toBe("node_names is required");
    expect(Object.keys(error.details?.fields ?? {})).toEqual(["node_names", "include_metadata", "params"]);
  });

  it("names each other bad field", async () => {
    const typed = await reject(nodeKnowledgeRetriever, { node_names: ["x"], include_metadata: "yes" });
    expect(typed.details?.fields).toHaveProperty("include_metadata");
    const item = await reject(nodeKnowledgeRetriever, { node_names: ["ok", ""] });
    expect(item.details?.fields).toHaveProperty(["node_names.1"]);
  });

  it.each([
    ["a missing query", "query is required", {}],
    ["an empty query", "query is required", { query: "" }],
    ["a blank query", "query is required", { query: "   " }],
    ["a query of 501 characters", "query is at most 500 characters", { query: "x".repeat(501) }],
    ["a query that is a number", "query must be a string", { query: 7 }],
  ])("answers %s with %j", async (_case, message, raw) => {
    expect((await reject(knowledgeSearch, raw)).message).toBe(message);
  });
});

describe("the gateway meta-tools' messages", () => {
  it("are those of the schemas the gateway parses with", () => {
    expect(callToolArgs.safeParse({}).error?.issues.map((issue) => issue.message)).toEqual([
      "name (the tool to call) is required",
    ]);
    expect(findToolsArgs.safeParse({ query: 1 }).error?.issues.map((issue) => issue.message)).toEqual([
      "query must be a string",
    ]);
    expect(findToolsArgs.parse({})).toEqual({ query: "", limit: 10 });
  });
});

describe("the OpenAPI document", () => {
  const invokeRequest = inputJsonSchema(invokeRequestSchema);

  it("describes each built-in's params with its listed schema and the invoke body from its zod schema", () => {
    const document = buildOpenApiDocument(builtinTools, "http://localhost:3000", invokeRequest);
    const schemas: Record<string, unknown> = document.components.schemas;
    for (const tool of builtinTools) {
      expect(schemas[`Params_${tool.name}`]).toEqual({
        description: tool.description,
        ...tool.inputSchema,
      });
    }
    const body = document.paths["/api/mcp/invoke"].post.requestBody.content["application/json"].schema as {
      oneOf: Record<string, unknown>[];
    };
    const { $schema: _dialect, ...derived } = z.toJSONSchema(invokeRequestSchema, { io: "input" });
    expect(invokeRequest).toEqual(derived);
    expect(body.oneOf.map((variant) => variant.title)).toEqual(builtinTools.map((tool) => tool.name));
    for (const variant of body.oneOf) {
      expect(variant).toMatchObject({
        type: "object",
        // Both built-ins have required arguments, so their params are required too.
        required: ["tool_name", "params"],
        additionalProperties: false,
        properties: {
          tool_name: { type: "string", minLength: 1, maxLength: 200, const: variant.title },
          params: { $ref: `#/components/schemas/Params_${variant.title}` },
        },
      });
    }
  });

  it("requires params exactly for the tools with required arguments", () => {
    const optional = { name: "everything_get-tiny-image", description: "An image.", source: "integration" };
    const tools = [
      ...builtinTools,
      { ...optional, inputSchema: { type: "object", properties: {} } },
      { ...optional, name: "x_empty", inputSchema: { type: "object", properties: {}, required: [] } },
    ] as Parameters<typeof buildOpenApiDocument>[0];
    const document = buildOpenApiDocument(tools, "http://localhost:3000", invokeRequest);
    const body = document.paths["/api/mcp/invoke"].post.requestBody.content["application/json"].schema as {
      oneOf: { title: string; required: string[] }[];
    };
    expect(Object.fromEntries(body.oneOf.map((variant) => [variant.title, variant.required]))).toEqual({
      node_knowledge_retriever: ["tool_name", "params"],
      knowledge_search: ["tool_name", "params"],
      "everything_get-tiny-image": ["tool_name"],
      x_empty: ["tool_name"],
    });
    // Each tool's body without params is exactly what the route refuses: it validates {} against the tool.
    for (const tool of builtinTools)
      expect(() => validateToolArgs(tool.inputSchema, {})).toThrow(ValidationError);
  });

  it("describes the invoke body by its zod schema when there are no tools", () => {
    const document = buildOpenApiDocument([], "http://localhost:3000", invokeRequest);
    expect(document.paths["/api/mcp/invoke"].post.requestBody.content["application/json"].schema).toEqual(
      invokeRequest,
    );
  });
});
