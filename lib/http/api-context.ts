import { getDb } from "@/db/client";
import { authenticateApiKey } from "@/lib/api-keys/api-keys";
import { enforceRateLimit } from "@/lib/api-keys/rate-limit";
import type { RequestContext } from "@/lib/auth/context";
import { getUserContext } from "@/lib/auth/request-context";
import { getEnv } from "@/lib/env";
import { UnauthorizedError } from "@/lib/errors";
import { addToRequestLog } from "./request-scope";

/** The context of an API request: the bearer API key's organization, or else the signed-in user's session. */
export async function apiRequestContext(request: Request): Promise<RequestContext> {
  const authorization = request.headers.get("authorization");
  if (authorization) {
    const ctx = await authenticateApiKey(getDb(), authorization);
    addToRequestLog({ orgId: ctx.orgId, apiKeyId: ctx.apiKeyId });
    await enforceRateLimit(getDb(), `api-key:${ctx.apiKeyId}`, getEnv().API_RATE_LIMIT_PER_MINUTE);
    return ctx;
  }
  const ctx = await getUserContext();
  if (!ctx) throw new UnauthorizedError("Send an API key as `Authorization: Bearer <key>`.");
  addToRequestLog({ orgId: ctx.orgId, userId: ctx.userId });
  return ctx;
}
