import { getDb } from "@/db/client";
import { createIntegrationServer, integrationForKey } from "@/lib/gateway/integration-server";
import { jsonRpcError } from "@/lib/gateway/json-rpc-error";
import { serveMcpPost, statelessOnly } from "@/lib/gateway/serve-mcp-post";
import { uncompressedApiRoute } from "@/lib/http/api-route";

export const dynamic = "force-dynamic";
export const maxDuration = 300;

/**
 * One integration's MCP server passed through, stateless, with the same API keys, access checks and usage
 * records as the gateway: for clients that want one server under its own names.
 */
export const POST = uncompressedApiRoute<{ slug: string }>(
  "POST /api/mcp/integrations/[slug]",
  async (request, { params }) => {
    const { slug } = await params;
    return serveMcpPost(request, async (ctx) => {
      const integration = await integrationForKey(getDb(), ctx, slug);
      if (!integration)
        return jsonRpcError(
          404,
          -32001,
          `No integration "${slug}" for this key: check the slug, that the integration is enabled, and the key's scope.`,
        );
      return createIntegrationServer(getDb(), ctx, integration);
    });
  },
);

export const GET = statelessOnly;
export const DELETE = statelessOnly;
