import type { RequestContext } from "@/lib/auth/context";
import { getUserContext } from "@/lib/auth/request-context";
import { UnauthorizedError } from "@/lib/errors";
import { apiKeyRequestContext } from "./api-key-context";
import { addToRequestLog } from "./request-scope";

/** The context of an API request: the bearer API key's organization, or else the signed-in user's session. */
export async function apiRequestContext(request: Request): Promise<RequestContext> {
  if (request.headers.get("authorization")) return apiKeyRequestContext(request);
  const ctx = await getUserContext();
  if (!ctx) throw new UnauthorizedError("Send an API key as `Authorization: Bearer <key>`.");
  addToRequestLog({ orgId: ctx.orgId, userId: ctx.userId });
  return ctx;
}
