import { apiRoute } from "@/lib/http/api-route";
import { trustedOrigin } from "@/lib/http/app-origin";
import { checkAuthorizationRequest } from "@/lib/oauth-server/authorization-requests";
import { checkedParameters, oauthEndpoint, readOAuthForm } from "@/lib/oauth-server/http";
import { methodNotAllowed, oauthErrorResponse } from "@/lib/oauth-server/oauth-response";

export const dynamic = "force-dynamic";

/**
 * The authorization endpoint (OAuth 2.1 §4.1.1), by GET or a POSTed form: a sound request goes on to the consent
 * page (sign-in first); an error goes back to the client's registered redirect URI when it can, else is answered
 * here in JSON.
 */
const authorize = apiRoute("GET /oauth/authorize", (request, { db }) =>
  oauthEndpoint(async () => {
    const params =
      request.method === "POST"
        ? await readOAuthForm(request)
        : checkedParameters(new URL(request.url).searchParams);
    const check = await checkAuthorizationRequest(db, params, trustedOrigin(request.headers));
    const status = request.method === "POST" ? 303 : 302;
    if (check.kind === "pending")
      return new Response(null, {
        status,
        headers: { Location: `/oauth/consent?request=${check.requestId}` },
      });
    if (check.kind === "redirect") return new Response(null, { status, headers: { Location: check.url } });
    return oauthErrorResponse(check.error);
  }),
);

const other = apiRoute("PUT /oauth/authorize", async (request) =>
  methodNotAllowed(request.method, "GET, POST"),
);

export { authorize as GET, authorize as POST, other as DELETE, other as PATCH, other as PUT };
