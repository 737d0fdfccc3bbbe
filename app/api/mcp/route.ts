import { gatewayEndpoint } from "@/lib/gateway/gateway-endpoint";
import { serveMcpDelete, serveMcpGet, serveMcpPost } from "@/lib/gateway/serve-mcp";
import { uncompressedApiRoute } from "@/lib/http/api-route";
import { otherMethods } from "@/lib/http/other-methods";
import { serveFromNode } from "@/lib/http/serve-from-node";

export const dynamic = "force-dynamic";
export const maxDuration = 300;

const ENDPOINT = "gateway";

/**
 * The MCP gateway over Streamable HTTP, both revisions: each POST is served for the caller's organization alone
 * (a 2026-07-28 request statelessly; a 2025 client's in its session, kept in the database, so any instance
 * answers any request).
 */
export const POST = uncompressedApiRoute("POST /api/mcp", (request, { db }) =>
  serveMcpPost(db, request, ENDPOINT, async (ctx) => gatewayEndpoint(db, ctx)),
);

export const GET = uncompressedApiRoute("GET /api/mcp", (request, { db }) =>
  serveMcpGet(db, request, ENDPOINT),
);
export const DELETE = uncompressedApiRoute("DELETE /api/mcp", (request, { db }) =>
  serveMcpDelete(db, request, ENDPOINT),
);

// Under `npm start`, later POSTs skip Next.js's router (see serveFromNode).
serveFromNode("POST", "/api/mcp", POST);

export const { OPTIONS, PATCH, PUT } = otherMethods("GET", "POST", "DELETE");
