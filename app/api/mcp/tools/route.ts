import { requireApiCaller } from "@/lib/http/api-context";
import { uncompressedApiRoute } from "@/lib/http/api-route";
import { otherMethods } from "@/lib/http/other-methods";
import { serveFromNode, withAuthorizationHeader } from "@/lib/http/serve-from-node";
import { listToolSet } from "@/lib/tools/catalog";
import { detailsWithoutTasks } from "@/lib/tools/types";

export const dynamic = "force-dynamic";

/** Every tool the caller may use, with its parameters as JSON Schema (seed 002, requirement 1). */
export const GET = uncompressedApiRoute("GET /api/mcp/tools", async (request, { db }) => {
  const ctx = await requireApiCaller(request);
  const listing = await listToolSet(db, ctx, { scope: ctx.toolScope });
  // Serialized and encoded once per listing (a Blob is never changed, so every answer can send the same one): an
  // organization with thousands of tools is not serialized per request.
  const body = listing.once(
    "rest",
    (tools) =>
      new Blob([
        JSON.stringify({
          tools: tools.map((tool) => ({
            name: tool.name,
            description: tool.description,
            parameters: tool.inputSchema,
            source: tool.source,
            ...detailsWithoutTasks(tool),
          })),
        }),
      ]),
  );
  return new Response(body, { headers: { "content-type": "application/json" } });
});

// Under `npm start`, later listings with an API key skip Next.js's router (see serveFromNode).
serveFromNode("GET", "/api/mcp/tools", GET, { when: withAuthorizationHeader });

export const { DELETE, OPTIONS, PATCH, POST, PUT } = otherMethods("GET");
