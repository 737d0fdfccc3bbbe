import type { RequestContext } from "@/lib/auth/context";
import { getUserContext } from "@/lib/auth/request-context";
import { UnauthorizedError } from "@/lib/errors";
import type { ToolScope } from "@/lib/tools/scope";
import { requireApiKey } from "./api-key-context";
import { addToRequestLog } from "./request-scope";

/** An API request's context and the tools it may reach: its key's scope, or everything for a signed-in user. */
export type ApiCallerContext = RequestContext & { toolScope: ToolScope };

/** An API request's caller, required: the bearer API key's context, or else the signed-in user's. */
export async function requireApiCaller(request: Request): Promise<ApiCallerContext> {
  if (request.headers.get("authorization")) return requireApiKey(request);
  const ctx = await getUserContext();
  if (!ctx) throw new UnauthorizedError("Send an API key as `Authorization: Bearer <key>`.");
  addToRequestLog({ orgId: ctx.orgId, userId: ctx.userId });
  return { ...ctx, toolScope: {} };
}
