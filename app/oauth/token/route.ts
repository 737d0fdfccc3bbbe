import { apiRoute } from "@/lib/http/api-route";
import { trustedOrigin } from "@/lib/http/app-origin";
import { oauthEndpoint, preflight, readOAuthForm } from "@/lib/oauth-server/http";
import { methodNotAllowed, oauthJson } from "@/lib/oauth-server/oauth-response";
import { tokenRequest } from "@/lib/oauth-server/token-endpoint";

export const dynamic = "force-dynamic";

/** The token endpoint: an authorization code (with its PKCE verifier) or a refresh token for new tokens. */
export const POST = apiRoute("POST /oauth/token", (request, { db }) =>
  oauthEndpoint(async () => {
    const form = await readOAuthForm(request);
    const tokens = await tokenRequest(db, form, {
      authorization: request.headers.get("authorization"),
      issuer: trustedOrigin(request.headers),
    });
    return oauthJson(tokens);
  }),
);

const other = apiRoute("GET /oauth/token", (request) =>
  oauthEndpoint(async () => methodNotAllowed(request.method, "POST")),
);

export { other as DELETE, other as GET, other as HEAD, other as PATCH, other as PUT, preflight as OPTIONS };
