import { z } from "zod";
import { requireSignedInUser } from "@/lib/auth/request-context";
import { apiRoute } from "@/lib/http/api-route";
import { otherMethods } from "@/lib/http/other-methods";
import { readJsonBody } from "@/lib/http/read-json";
import { mcpUseCases } from "@/lib/mcp/use-cases";
import { parseInput } from "@/lib/validation";

export const dynamic = "force-dynamic";

const bodySchema = z
  .object({
    name: z.string({ error: "name is required" }).min(1, { error: "name is required" }).max(200),
    arguments: z.record(z.string(), z.string({ error: "Each argument is text." }).max(20_000)).default({}),
  })
  .strict();

/** The integration page's prompt run: one prompts/get with the person's arguments, and the messages it answers. */
export const POST = apiRoute<{ id: string }>(
  "POST /api/integrations/[id]/prompts/get",
  async (request, { params, db }) => {
    const ctx = await requireSignedInUser();
    const body = parseInput(bodySchema, await readJsonBody(request));
    return Response.json(await mcpUseCases(db).getPrompt(ctx, { integrationId: (await params).id, ...body }));
  },
);

export const { DELETE, GET, HEAD, OPTIONS, PATCH, PUT } = otherMethods("POST");
