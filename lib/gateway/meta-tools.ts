import { z } from "zod";
import { inputJsonSchema } from "@/lib/tools/tool-args";
import type { ToolDescriptor } from "@/lib/tools/types";

export const FIND_TOOLS = "find_tools";
export const CALL_TOOL = "call_tool";

/** find_tools' arguments: the gateway parses with this, and find_tools is listed with it as JSON Schema. */
export const findToolsArgs = z.object({
  query: z
    .string({ error: "query must be a string" })
    .max(500)
    .default("")
    .meta({ description: "Keywords, such as 'github issue' or 'knowledge'. Empty lists the first tools." }),
  limit: z.number().int().min(1).max(50).default(10).meta({ description: "Most tools to return." }),
});

/** call_tool's arguments: the gateway parses with this, and call_tool is listed with it as JSON Schema. */
export const callToolArgs = z.object({
  name: z
    .string({ error: "name (the tool to call) is required" })
    .min(1)
    .meta({ description: "The tool's name." }),
  arguments: z
    .record(z.string(), z.unknown())
    .default({})
    .meta({ description: "The tool's arguments, matching its input schema." }),
});

/** Two tools that stand for all the others, so a client with hundreds of tools keeps its context small. */
export const metaTools: Omit<ToolDescriptor, "source">[] = [
  {
    name: FIND_TOOLS,
    description:
      "Search the organization's tools by keywords. Returns matching tools with their names, descriptions and input schemas; call one with call_tool.",
    inputSchema: inputJsonSchema(findToolsArgs),
  },
  {
    name: CALL_TOOL,
    description:
      "Call any tool of the organization by its name (as find_tools returns it) with its arguments.",
    inputSchema: inputJsonSchema(callToolArgs),
  },
];

/** The tools whose name or description best match the keywords: name hits weigh more than description hits. */
export function findTools(tools: ToolDescriptor[], query: string, limit: number): ToolDescriptor[] {
  const words = query
    .toLowerCase()
    .split(/[\s_\-.,/]+/)
    .filter(Boolean);
  if (words.length === 0) return tools.slice(0, limit);
  return tools
    .map((tool) => {
      const name = tool.name.toLowerCase();
      const description = tool.description.toLowerCase();
      const score = words.reduce(
        (sum, word) => sum + (name.includes(word) ? 3 : 0) + (description.includes(word) ? 1 : 0),
        0,
      );
      return { tool, score };
    })
    .filter((entry) => entry.score > 0)
    .sort((x, y) => y.score - x.score || x.tool.name.localeCompare(y.tool.name))
    .slice(0, limit)
    .map((entry) => entry.tool);
}
