import { requireSignedInUser } from "@/lib/auth/request-context";
import { apiRoute } from "@/lib/http/api-route";
import { otherMethods } from "@/lib/http/other-methods";
import { mcpUseCases } from "@/lib/mcp/use-cases";

export const dynamic = "force-dynamic";

/** The integration's resource templates, for the page to fill one in and read the resource it names. */
export const GET = apiRoute<{ id: string }>(
  "GET /api/integrations/[id]/resources/templates",
  async (_request, { params, db }) => {
    const ctx = await requireSignedInUser();
    const templates = await mcpUseCases(db).listResourceTemplates(ctx, { integrationId: (await params).id });
    return Response.json({ templates });
  },
);

export const { DELETE, OPTIONS, PATCH, POST, PUT } = otherMethods("GET");
