import { SubscriptionsListenRequestSchema } from "@modelcontextprotocol/core";
import { createMcpHandler, type ServerEventBus } from "@modelcontextprotocol/server";
import type { Database } from "@/db/client";
import { logger } from "@/lib/logger";
import { mcpUseCases } from "@/lib/mcp/use-cases";
import type { GatewayCaller } from "./caller";
import type { McpEndpoint } from "./endpoint";
import { listenBus } from "./listen-bus";
import { modernCalls, verifyRequestState } from "./modern-call";
import { modernTasks, takesTasks } from "./modern-tasks";
import { requestServer } from "./request-server";

/**
 * A listen request's stream hears the organization's changes from every instance; the resources it names are
 * subscribed to at their integrations' servers (as a session's resources/subscribe does), so their updates come.
 */
async function listenerBus(
  db: Database,
  ctx: GatewayCaller,
  endpointName: string,
  endpoint: McpEndpoint,
  body: unknown,
): Promise<ServerEventBus | undefined> {
  const listen = SubscriptionsListenRequestSchema.safeParse(body);
  if (!listen.success) return undefined;
  const useCases = mcpUseCases(db);
  await Promise.allSettled(
    (listen.data.params.notifications.resourceSubscriptions ?? []).map(async (uri) => {
      const target = await endpoint.resourceTarget(uri);
      if (target) await useCases.subscribeResource(ctx, target);
    }),
  );
  return listenBus(db, ctx.orgId, endpointName);
}

/** The tool a tools/call names, when it mirrors arguments in headers, with the input schema the SDK checks them by. */
async function calledToolOf(endpoint: McpEndpoint, body: unknown) {
  const call = body as { method?: unknown; params?: { name?: unknown } } | null;
  if (call?.method !== "tools/call" || typeof call.params?.name !== "string") return undefined;
  const name = call.params.name;
  const inputSchema = await endpoint.mirroringSchemaOf(name);
  return inputSchema && { name, inputSchema };
}

/**
 * One 2026-07-28 request (stateless: no session, its protocol version and the client's capabilities in its
 * `_meta`), answered by the SDK's handler for that revision with a server made for this caller alone: the SDK
 * checks the routing headers and the envelope, answers server/discover, stamps result types, cache hints and the
 * server's identity, serves listen streams, and refuses what the revision does not have. Questions an upstream
 * server asks during a call reach the client as input_required (modern-call.ts).
 */
export async function serveModern(
  db: Database,
  request: Request,
  ctx: GatewayCaller,
  endpointName: string,
  endpoint: McpEndpoint,
  body: unknown,
): Promise<Response> {
  const calls = modernCalls(db, ctx, endpointName);
  const tasks = modernTasks(db, ctx, endpointName);
  const bus = await listenerBus(db, ctx, endpointName, endpoint, body);
  const calledTool = await calledToolOf(endpoint, body);
  const handler = createMcpHandler(
    () =>
      requestServer(endpoint, {
        // A tool its server runs as a task is called as one for a client that takes tasks.
        runCall: async (call, target, start) =>
          call.mcpReq.method === "tools/call" && takesTasks(call) && (await endpoint.runsAsTask(target))
            ? tasks.start(call, start)
            : calls.run(call, target, start),
        tasks,
        requestState: { verify: verifyRequestState },
        ...(calledTool ? { calledTool } : {}),
      }),
    {
      legacy: "reject",
      ...(bus ? { bus } : {}),
      onerror: (error) => logger.debug("2026-07-28 request not served", { err: error }),
    },
  );
  return handler.fetch(request, { parsedBody: body });
}
