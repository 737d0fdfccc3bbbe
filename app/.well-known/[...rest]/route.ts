import { apiRoute } from "@/lib/http/api-route";
import { wellKnownNotFound } from "@/lib/oauth-server/well-known";

export const dynamic = "force-dynamic";

/** Every other /.well-known path: a JSON 404, so a client probing for metadata never parses an HTML page. */
const answer = apiRoute("GET /.well-known/*", async (request) => wellKnownNotFound(request));

export {
  answer as DELETE,
  answer as GET,
  answer as HEAD,
  answer as OPTIONS,
  answer as PATCH,
  answer as POST,
  answer as PUT,
};
