import { createMcpHandler } from "@modelcontextprotocol/server";
import type { Database } from "@/db/client";
import type { ApiKeyContext } from "@/lib/api-keys/api-keys";
import { logger } from "@/lib/logger";
import type { McpEndpoint } from "./endpoint";
import { modernCalls, verifyRequestState } from "./modern-call";
import { requestServer } from "./request-server";

/**
 * One 2026-07-28 request (stateless: no session, its protocol version and the client's capabilities in its
 * `_meta`), answered by the SDK's handler for that revision with a server made for this caller alone: the SDK
 * checks the routing headers and the envelope, answers server/discover, stamps result types, cache hints and the
 * server's identity, and refuses what the revision does not have. Questions an upstream server asks during a call
 * reach the client as input_required (modern-call.ts).
 */
export function serveModern(
  db: Database,
  request: Request,
  ctx: ApiKeyContext,
  endpointName: string,
  endpoint: McpEndpoint,
  body: unknown,
): Promise<Response> {
  const calls = modernCalls(db, ctx, endpointName);
  const handler = createMcpHandler(
    () =>
      requestServer(endpoint, {
        runCall: calls.run,
        requestState: { verify: verifyRequestState },
      }),
    {
      legacy: "reject",
      onerror: (error) => logger.debug("2026-07-28 request not served", { err: error }),
    },
  );
  return handler.fetch(request, { parsedBody: body });
}
