import { apiRoute } from "@/lib/http/api-route";
import { oauthEndpoint, preflight, readOAuthForm } from "@/lib/oauth-server/http";
import { methodNotAllowed } from "@/lib/oauth-server/oauth-response";
import { revokeToken } from "@/lib/oauth-server/token-revocation";

export const dynamic = "force-dynamic";

/** Token revocation (RFC 7009): a refresh token ends its grant, an access token itself; 200 either way. */
export const POST = apiRoute("POST /oauth/revoke", (request, { db }) =>
  oauthEndpoint(async () => {
    await revokeToken(db, await readOAuthForm(request), {
      authorization: request.headers.get("authorization"),
    });
    return new Response(null, { status: 200, headers: { "Cache-Control": "no-store" } });
  }),
);

const other = apiRoute("GET /oauth/revoke", (request) =>
  oauthEndpoint(async () => methodNotAllowed(request.method, "POST")),
);

export { other as DELETE, other as GET, other as HEAD, other as PATCH, other as PUT, preflight as OPTIONS };
