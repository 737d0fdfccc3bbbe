import { UnauthorizedError } from "@/lib/errors";
import { requireApiCaller } from "@/lib/http/api-context";
import { apiRoute } from "@/lib/http/api-route";
import { trustedOrigin } from "@/lib/http/app-origin";
import { otherMethods } from "@/lib/http/other-methods";
import { buildOpenApiDocument } from "@/lib/openapi/document";
import { builtinTools } from "@/lib/tools/builtin";
import { listTools } from "@/lib/tools/catalog";
import { inputJsonSchema } from "@/lib/tools/tool-args";
import type { ToolDescriptor } from "@/lib/tools/types";
import { invokeRequestSchema } from "../mcp/invoke/schema";

export const dynamic = "force-dynamic";

/** The OpenAPI document; with a key (or session) it describes the caller's tools, otherwise the built-in ones. */
export const GET = apiRoute("GET /api/openapi.json", async (request, { db }) => {
  let tools: ToolDescriptor[] = builtinTools.map(({ run: _run, ...tool }) => tool);
  try {
    const ctx = await requireApiCaller(request);
    tools = await listTools(db, ctx, { scope: ctx.toolScope });
  } catch (error) {
    if (!(error instanceof UnauthorizedError)) throw error;
  }
  // AUTH_URL, else what a declared proxy forwards: generated clients target the address users reach.
  const origin = trustedOrigin(request.headers);
  return Response.json(buildOpenApiDocument(tools, origin, inputJsonSchema(invokeRequestSchema)));
});

export const { DELETE, OPTIONS, PATCH, POST, PUT } = otherMethods("GET");
