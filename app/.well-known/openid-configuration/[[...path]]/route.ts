import { apiRoute } from "@/lib/http/api-route";
import { everyMethod } from "@/lib/http/every-method";
import { authorizationServerAnswer } from "@/lib/oauth-server/well-known";

export const dynamic = "force-dynamic";

/** The authorization server's metadata under OpenID Connect discovery's name, which MCP clients also try. */
export const { DELETE, GET, HEAD, OPTIONS, PATCH, POST, PUT } = everyMethod(
  apiRoute<{ path?: string[] }>("GET /.well-known/openid-configuration", async (request, { params }) =>
    authorizationServerAnswer(request, (await params).path ?? []),
  ),
);
