import { apiRoute } from "@/lib/http/api-route";
import { everyMethod } from "@/lib/http/every-method";
import { protectedResourceAnswer } from "@/lib/oauth-server/well-known";

export const dynamic = "force-dynamic";

/** Each MCP endpoint's Protected Resource Metadata (RFC 9728); other methods get 405, in JSON. */
export const { DELETE, GET, HEAD, OPTIONS, PATCH, POST, PUT } = everyMethod(
  apiRoute<{ path?: string[] }>("GET /.well-known/oauth-protected-resource", async (request, { params }) =>
    protectedResourceAnswer(request, (await params).path ?? []),
  ),
);
