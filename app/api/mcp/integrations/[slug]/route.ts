import type { GatewayCaller } from "@/lib/gateway/caller";
import { integrationEndpoint, integrationForCaller } from "@/lib/gateway/integration-endpoint";
import { jsonRpcError } from "@/lib/gateway/json-rpc-error";
import { serveMcpDelete, serveMcpGet, serveMcpPost } from "@/lib/gateway/serve-mcp";
import { uncompressedApiRoute } from "@/lib/http/api-route";
import { otherMethods } from "@/lib/http/other-methods";
import { serveFromNode } from "@/lib/http/serve-from-node";

export const dynamic = "force-dynamic";
export const maxDuration = 300;

const endpointOf = (slug: string) => `integrations/${slug}`;
const credentialNoun = (ctx: GatewayCaller) => (ctx.credential.kind === "api-key" ? "key" : "authorization");

/**
 * One integration's MCP server passed through, with the same API keys, access checks, usage records, revisions
 * and sessions as the gateway: for clients that want one server under its own names.
 */
export const POST = uncompressedApiRoute<{ slug: string }>(
  "POST /api/mcp/integrations/[slug]",
  async (request, { params, db }) => {
    const { slug } = await params;
    return serveMcpPost(db, request, endpointOf(slug), async (ctx, session) => {
      const integration = await integrationForCaller(db, ctx, slug);
      if (!integration)
        return jsonRpcError(
          404,
          -32001,
          `No integration "${slug}" for this ${credentialNoun(ctx)}: check the slug, that the integration is enabled, and the ${credentialNoun(ctx)}'s scope.`,
        );
      return integrationEndpoint(db, ctx, integration, session?.id);
    });
  },
);

// Under `npm start`, later POSTs skip Next.js's router (see serveFromNode).
serveFromNode("POST", "/api/mcp/integrations/[slug]", POST);

export const GET = uncompressedApiRoute<{ slug: string }>(
  "GET /api/mcp/integrations/[slug]",
  async (request, { params, db }) => serveMcpGet(db, request, endpointOf((await params).slug)),
);
export const DELETE = uncompressedApiRoute<{ slug: string }>(
  "DELETE /api/mcp/integrations/[slug]",
  async (request, { params, db }) => serveMcpDelete(db, request, endpointOf((await params).slug)),
);

export const { OPTIONS, PATCH, PUT } = otherMethods("GET", "POST", "DELETE");
