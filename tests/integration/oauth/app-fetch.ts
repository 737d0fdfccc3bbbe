import * as otherWellKnown from "@/app/.well-known/[...rest]/route";
import * as authorizationServer from "@/app/.well-known/oauth-authorization-server/[[...path]]/route";
import * as protectedResource from "@/app/.well-known/oauth-protected-resource/[[...path]]/route";
import * as openIdConfiguration from "@/app/.well-known/openid-configuration/[[...path]]/route";
import * as passThrough from "@/app/api/mcp/integrations/[slug]/route";
import * as gateway from "@/app/api/mcp/route";
import * as otherOAuth from "@/app/oauth/[...rest]/route";
import * as authorize from "@/app/oauth/authorize/route";
import * as register from "@/app/oauth/register/route";
import * as revoke from "@/app/oauth/revoke/route";
import * as token from "@/app/oauth/token/route";

/** Where the app is reached in these tests, as a browser or client would name it. */
export const APP = "http://localhost:3000";

type Handler = (request: Request, context: { params: Promise<Record<string, unknown>> }) => Promise<Response>;
type RouteModule = Partial<Record<string, unknown>>;

/** The route module and params for a path, as Next.js would pick them. */
function routeOf(path: string): { module: RouteModule; params: Record<string, unknown> } | undefined {
  const segments = path.split("/").filter(Boolean);
  const rest = (n: number) => segments.slice(n);
  if (path === "/api/mcp") return { module: gateway, params: {} };
  if (
    segments[0] === "api" &&
    segments[1] === "mcp" &&
    segments[2] === "integrations" &&
    segments.length === 4
  )
    return { module: passThrough, params: { slug: decodeURIComponent(segments[3] ?? "") } };
  if (segments[0] === ".well-known") {
    const kind = segments[1];
    if (kind === "oauth-protected-resource") return { module: protectedResource, params: { path: rest(2) } };
    if (kind === "oauth-authorization-server")
      return { module: authorizationServer, params: { path: rest(2) } };
    if (kind === "openid-configuration") return { module: openIdConfiguration, params: { path: rest(2) } };
    return { module: otherWellKnown, params: { rest: rest(1) } };
  }
  if (segments[0] === "oauth") {
    const known: Record<string, RouteModule> = { authorize, token, register, revoke };
    const module = segments.length === 2 && segments[1] ? known[segments[1]] : undefined;
    return { module: module ?? otherOAuth, params: { rest: rest(1) } };
  }
  return undefined;
}

/**
 * A fetch that goes straight to the app's route handlers (the MCP endpoints, the authorization server, the
 * well-known documents), with the Host header a server always sees; for the SDK's client and for direct calls.
 */
export async function appFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const request = new Request(input, init);
  request.headers.set("host", new URL(request.url).host);
  const route = routeOf(new URL(request.url).pathname);
  const handler = route?.module[request.method] as Handler | undefined;
  if (!route) return new Response("no such route in the test app", { status: 599 });
  if (!handler) return new Response(null, { status: 405 });
  return handler(request, { params: Promise.resolve(route.params) });
}

/** A form POST to one of the authorization server's endpoints. */
export function postForm(path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return appFetch(`${APP}${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields),
  });
}
