import { getDb } from "@/db/client";
import { type ApiKeyContext, authenticateApiKey } from "@/lib/api-keys/api-keys";
import { enforceRateLimit } from "@/lib/api-keys/rate-limit";
import { getEnv } from "@/lib/env";
import { inSpan } from "@/lib/tracing/tracer";
import { addToRequestLog } from "./request-scope";

/** A request's bearer API key, required: its context, logged with the request and held to its rate limit. */
export function requireApiKey(request: Request): Promise<ApiKeyContext> {
  return inSpan("auth api_key", {}, async (span) => {
    const ctx = await authenticateApiKey(getDb(), request.headers.get("authorization"));
    span.setAttribute("switchboard.organization.id", ctx.orgId);
    addToRequestLog({ orgId: ctx.orgId, apiKeyId: ctx.apiKeyId });
    await chargeApiKey(ctx, 1);
    return ctx;
  });
}

/**
 * Counts requests against the key's per-minute limit, throwing a RateLimitedError (429) once it is passed: one
 * for each request (requireApiKey does that), and one more for each further message a request carries.
 */
export function chargeApiKey(ctx: Pick<ApiKeyContext, "apiKeyId">, requests: number): Promise<void> {
  return enforceRateLimit(
    getDb(),
    `api-key:${ctx.apiKeyId}`,
    getEnv().API_RATE_LIMIT_PER_MINUTE,
    new Date(),
    requests,
  );
}
