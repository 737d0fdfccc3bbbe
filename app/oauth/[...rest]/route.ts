import { apiRoute } from "@/lib/http/api-route";
import { everyMethod } from "@/lib/http/every-method";
import { oauthJson } from "@/lib/oauth-server/oauth-response";

export const dynamic = "force-dynamic";

/** Any other /oauth path: a JSON 404 naming where the endpoints are. */
export const { DELETE, GET, HEAD, OPTIONS, PATCH, POST, PUT } = everyMethod(
  apiRoute("GET /oauth/*", async (request) =>
    oauthJson(
      {
        error: "not_found",
        error_description: `Nothing is served at ${new URL(request.url).pathname}. The endpoints are listed at /.well-known/oauth-authorization-server.`,
      },
      404,
    ),
  ),
);
