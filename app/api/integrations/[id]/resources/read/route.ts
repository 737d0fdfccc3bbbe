import { z } from "zod";
import { requireSignedInUser } from "@/lib/auth/request-context";
import { apiRoute } from "@/lib/http/api-route";
import { otherMethods } from "@/lib/http/other-methods";
import { readJsonBody } from "@/lib/http/read-json";
import { mcpUseCases } from "@/lib/mcp/use-cases";
import { parseInput } from "@/lib/validation";

export const dynamic = "force-dynamic";

const bodySchema = z
  .object({ uri: z.string({ error: "uri is required" }).min(1, { error: "uri is required" }).max(2000) })
  .strict();

/** The integration page's resource preview: one resources/read of one of its resources, as the signed-in user. */
export const POST = apiRoute<{ id: string }>(
  "POST /api/integrations/[id]/resources/read",
  async (request, { params, db }) => {
    const ctx = await requireSignedInUser();
    const { uri } = parseInput(bodySchema, await readJsonBody(request));
    return Response.json(await mcpUseCases(db).readResource(ctx, { integrationId: (await params).id, uri }));
  },
);

export const { DELETE, GET, HEAD, OPTIONS, PATCH, PUT } = otherMethods("POST");
