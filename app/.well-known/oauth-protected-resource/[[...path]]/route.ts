import { apiRoute } from "@/lib/http/api-route";
import { protectedResourceAnswer } from "@/lib/oauth-server/well-known";

export const dynamic = "force-dynamic";

/** Each MCP endpoint's Protected Resource Metadata (RFC 9728); other methods get 405, in JSON. */
const answer = apiRoute<{ path?: string[] }>(
  "GET /.well-known/oauth-protected-resource",
  async (request, { params }) => protectedResourceAnswer(request, (await params).path ?? []),
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
