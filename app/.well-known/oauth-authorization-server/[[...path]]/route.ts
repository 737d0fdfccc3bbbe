import { apiRoute } from "@/lib/http/api-route";
import { authorizationServerAnswer } from "@/lib/oauth-server/well-known";

export const dynamic = "force-dynamic";

/** The authorization server's metadata (RFC 8414); other methods get 405, in JSON. */
const answer = apiRoute<{ path?: string[] }>(
  "GET /.well-known/oauth-authorization-server",
  async (request, { params }) => authorizationServerAnswer(request, (await params).path ?? []),
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
