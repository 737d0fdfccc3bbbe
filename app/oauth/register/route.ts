import { clientAddress } from "@/lib/auth/sign-in-throttle";
import { apiRoute } from "@/lib/http/api-route";
import { readJsonBody } from "@/lib/http/read-json";
import { registerClient } from "@/lib/oauth-server/clients";
import { oauthEndpoint, preflight } from "@/lib/oauth-server/http";
import { methodNotAllowed, oauthJson } from "@/lib/oauth-server/oauth-response";

export const dynamic = "force-dynamic";

/** Dynamic client registration (RFC 7591): a client's metadata in, its client_id (and secret, if any) out. */
export const POST = apiRoute("POST /oauth/register", (request, { db }) =>
  oauthEndpoint(async () => {
    const body = await readJsonBody(request, 64 * 1024);
    const client = await registerClient(db, body, { address: clientAddress(request.headers) });
    return oauthJson(client, 201);
  }),
);

const other = apiRoute("GET /oauth/register", (request) =>
  oauthEndpoint(async () => methodNotAllowed(request.method, "POST")),
);

export { other as DELETE, other as GET, other as HEAD, other as PATCH, other as PUT, preflight as OPTIONS };
