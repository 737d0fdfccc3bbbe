/** Which surface an API route belongs to, from its name ("POST /api/mcp/invoke"): a bounded label value. */
export function surfaceOf(routeName: string): "gateway" | "rest" | "chat" | "auth" | "app" {
  const path = routeName.slice(routeName.indexOf(" ") + 1);
  if (path === "/api/mcp" || path.startsWith("/api/mcp/integrations/")) return "gateway";
  if (path.startsWith("/api/mcp/") || path === "/api/openapi.json") return "rest";
  if (path.startsWith("/api/chat")) return "chat";
  if (
    path.startsWith("/api/auth") ||
    path.startsWith("/api/oauth") ||
    path.startsWith("/oauth/") ||
    path.startsWith("/.well-known/")
  )
    return "auth";
  return "app";
}
