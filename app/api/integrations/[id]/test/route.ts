import { revalidatePath } from "next/cache";
import { requireSignedInUser } from "@/lib/auth/request-context";
import { apiRoute } from "@/lib/http/api-route";
import { otherMethods } from "@/lib/http/other-methods";
import { testIntegration } from "@/lib/mcp/integrations/test-connection";

export const dynamic = "force-dynamic";

/**
 * "Test connection" on an integration's page, as the signed-in user. A route rather than a server action, so
 * the browser can cancel it: a cancelled request cancels the listing on the MCP server and stores nothing.
 */
export const POST = apiRoute<{ id: string }>(
  "POST /api/integrations/[id]/test",
  async (request, { params, db }) => {
    const ctx = await requireSignedInUser();
    const result = await testIntegration(db, ctx, (await params).id, { signal: request.signal });
    revalidatePath("/integrations");
    return Response.json(result);
  },
);

export const { DELETE, GET, HEAD, OPTIONS, PATCH, PUT } = otherMethods("POST");
