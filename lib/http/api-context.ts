import type { RequestContext } from "@/lib/auth/context";
import { getUserContext } from "@/lib/auth/request-context";
import { UnauthorizedError } from "@/lib/errors";
import type { ToolScope } from "@/lib/tools/scope";
import { apiKeyRequestContext } from "./api-key-context";
import { addToRequestLog } from "./request-scope";

/** An API request's context and the tools it may reach: its key's scope, or everything for a signed-in user. */
export type ApiRequestContext = RequestContext & { toolScope: ToolScope };

/** The context of an API request: the bearer API key's organization, or else the signed-in user's session. */
export async function apiRequestContext(request: Request): Promise<ApiRequestContext> {
  if (request.headers.get("authorization")) return apiKeyRequestContext(request);
  const ctx = await getUserContext();
  if (!ctx) throw new UnauthorizedError("Send an API key as `Authorization: Bearer <key>`.");
  addToRequestLog({ orgId: ctx.orgId, userId: ctx.userId });
  return { ...ctx, toolScope: {} };
}
