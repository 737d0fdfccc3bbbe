import { z } from "zod";
import { databaseForRequest, getUserContext } from "@/lib/auth/request-context";
import { otherMethods } from "@/lib/http/other-methods";
import { logger } from "@/lib/logger";
import { finishOAuthConnection, OAuthFlowError, pendingFlowIntegration } from "@/lib/mcp/oauth/oauth-flow";

const callbackSchema = z.object({
  // A flow's state is URL-safe text we made; anything else (a NUL, say) is a forged link, not a database error.
  state: z.string().regex(/^[\w-]{1,200}$/),
  code: z.string().min(1).max(4000).optional(),
  iss: z.string().max(2000).optional(),
  error: z.string().max(200).optional(),
  error_description: z.string().max(1000).optional(),
});

// Only a short word goes back into the address: the page maps it to its own text, so a crafted link cannot
// make the page say something else.
const providerErrorCode = (value: string | undefined) =>
  value && /^[a-z_]{1,40}$/.test(value) ? value : undefined;

/** Where the provider sends the browser after consent: finishes the flow, then back to the integration's page. */
export async function GET(request: Request) {
  // A relative Location: the browser stays on the address it used, whatever proxies sit in between.
  const back = (path: string) => new Response(null, { status: 303, headers: { location: path } });
  const ctx = await getUserContext();
  if (!ctx) return back("/login");
  const query = callbackSchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) return back("/integrations?oauth=invalid");
  const { state, code, iss, error, error_description: errorDescription } = query.data;
  const db = databaseForRequest();
  const integrationId = await pendingFlowIntegration(db, ctx, state);
  const page = integrationId ? `/integrations/${integrationId}` : "/integrations";
  try {
    await finishOAuthConnection(db, ctx, { state, code, iss, error, errorDescription });
    return back(`${page}?oauth=connected`);
  } catch (failure) {
    if (failure instanceof OAuthFlowError) {
      const reason = failure.outcome === "denied" ? providerErrorCode(error) : undefined;
      return back(`${page}?oauth=${failure.outcome}${reason ? `&reason=${reason}` : ""}`);
    }
    logger.warn("oauthCallbackFailed", {
      integrationId,
      message: failure instanceof Error ? failure.message : String(failure),
    });
    return back(`${page}?oauth=failed`);
  }
}

export const { DELETE, OPTIONS, PATCH, POST, PUT } = otherMethods("GET");
