import { apiRoute } from "@/lib/http/api-route";
import { everyMethod } from "@/lib/http/every-method";
import { wellKnownNotFound } from "@/lib/oauth-server/well-known";

export const dynamic = "force-dynamic";

/** Every other /.well-known path: a JSON 404, so a client probing for metadata never parses an HTML page. */
export const { DELETE, GET, HEAD, OPTIONS, PATCH, POST, PUT } = everyMethod(
  apiRoute("GET /.well-known/*", async (request) => wellKnownNotFound(request)),
);
