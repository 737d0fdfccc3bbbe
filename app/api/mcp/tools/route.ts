import { getDb } from "@/db/client";
import { apiRequestContext } from "@/lib/http/api-context";
import { apiRoute } from "@/lib/http/api-route";
import { listTools } from "@/lib/tools/catalog";

export const dynamic = "force-dynamic";

/** Every tool the caller may use, with its parameters as JSON Schema (seed 002, requirement 1). */
export const GET = apiRoute("GET /api/mcp/tools", async (request) => {
  const ctx = await apiRequestContext(request);
  const tools = await listTools(getDb(), ctx, { scope: ctx.toolScope });
  return Response.json({
    tools: tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      parameters: tool.inputSchema,
      source: tool.source,
    })),
  });
});
