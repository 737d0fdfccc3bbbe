import { type NextRequest, NextResponse } from "next/server";

/**
 * The default endpoints of the 2025-03-26 authorization specification (/authorize, /token, /register), which clients
 * that find no metadata fall back to, answered by the authorization server rather than by pages: a JSON
 * registration posted to /register is a client registering, not the sign-up page's form (which posts a form, with
 * Next.js's action header when scripts run).
 */
export function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  if (pathname === "/register") {
    const json = /^application\/(.+\+)?json\b/i.test(request.headers.get("content-type") ?? "");
    if (request.method !== "POST" || !json || request.headers.has("next-action")) return NextResponse.next();
  }
  return NextResponse.rewrite(new URL(`/oauth${pathname}${search}`, request.url));
}

export const config = { matcher: ["/authorize", "/token", "/register"] };
