import { apiRoute } from "@/lib/http/api-route";
import { oauthJson } from "@/lib/oauth-server/oauth-response";

export const dynamic = "force-dynamic";

/** Any other /oauth path: a JSON 404 naming the endpoints there are. */
const answer = apiRoute("GET /oauth/*", async (request) =>
  oauthJson(
    {
      error: "not_found",
      error_description: `Nothing is served at ${new URL(request.url).pathname}. The endpoints are listed at /.well-known/oauth-authorization-server.`,
    },
    404,
  ),
);

export {
  answer as DELETE,
  answer as GET,
  answer as HEAD,
  answer as OPTIONS,
  answer as PATCH,
  answer as POST,
  answer as PUT,
};
