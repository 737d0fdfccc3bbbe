import { apiRoute } from "@/lib/http/api-route";
import { everyMethod } from "@/lib/http/every-method";
import { authorizationServerAnswer } from "@/lib/oauth-server/well-known";

export const dynamic = "force-dynamic";

/** The authorization server's metadata (RFC 8414); other methods get 405, in JSON. */
export const { DELETE, GET, HEAD, OPTIONS, PATCH, POST, PUT } = everyMethod(
  apiRoute<{ path?: string[] }>("GET /.well-known/oauth-authorization-server", async (request, { params }) =>
    authorizationServerAnswer(request, (await params).path ?? []),
  ),
);
