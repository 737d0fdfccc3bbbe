import type { Instrumentation } from "next";

/** Server start: traces when an OTLP endpoint is set, then the background health check of the integrations. */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { tracingRequested } = await import("@/lib/tracing/tracing-requested");
  if (tracingRequested()) (await import("@/lib/tracing/start-tracing")).startTracing();
  const { startHealthChecks } = await import("@/lib/health/scheduler");
  startHealthChecks();
}

/** Errors thrown while rendering pages or running actions, logged once in our structured format without stacks. */
export const onRequestError: Instrumentation.onRequestError = async (error, request, context) => {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { logger } = await import("@/lib/logger");
  logger.error("request error", {
    err: error,
    digest: (error as { digest?: string }).digest,
    method: request.method,
    path: request.path,
    routePath: context.routePath,
    routeType: context.routeType,
  });
};
