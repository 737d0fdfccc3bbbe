import { z } from "zod";
import { requireSignedInUser } from "@/lib/auth/request-context";
import { toErrorResponse } from "@/lib/errors";
import { apiRoute } from "@/lib/http/api-route";
import { otherMethods } from "@/lib/http/other-methods";
import { progressStream, wantsProgress } from "@/lib/http/progress-stream";
import { readJsonBody } from "@/lib/http/read-json";
import { type RunnerLine, runnerRelay } from "@/lib/mcp/relay/ask-in-runner";
import { withDownstreamRelay } from "@/lib/mcp/relay/downstream-relay";
import { runIntegrationTool } from "@/lib/tools/integration-tool-run";
import { parseInput } from "@/lib/validation";

export const dynamic = "force-dynamic";

const bodySchema = z
  .object({
    toolName: z.string({ error: "toolName is required" }).min(1).max(200),
    args: z.record(z.string(), z.unknown(), { error: "args must be an object" }),
  })
  .strict();

/**
 * The integration page's tool runner: one call of one of its tools, as the signed-in user. A route rather than
 * a server action, so the browser can cancel it: a cancelled request cancels the call on the MCP server. Asked
 * for NDJSON, it streams what the server says during the call (progress, log messages, its questions and sampling
 * requests, answered in the page) before the result.
 */
export const POST = apiRoute<{ id: string }>(
  "POST /api/integrations/[id]/run",
  async (request, { params, requestId, db }) => {
    const ctx = await requireSignedInUser();
    const { toolName, args } = parseInput(bodySchema, await readJsonBody(request));
    const id = (await params).id;
    const run = () => runIntegrationTool(db, ctx, id, toolName, args, { signal: request.signal });
    if (!wantsProgress(request)) return Response.json(await run());
    return progressStream<RunnerLine>(
      (send) => withDownstreamRelay(runnerRelay(db, ctx, send), run),
      (error) => toErrorResponse(error, { route: "POST /api/integrations/[id]/run", requestId }),
    );
  },
);

export const { DELETE, GET, HEAD, OPTIONS, PATCH, PUT } = otherMethods("POST");
