// Resources and prompts of every integration share one gateway, so each carries its integration in its name.
const SCHEME = "switchboard://";

/** `switchboard://<slug>/<upstream uri>`: the upstream URI (or URI template) verbatim after the slug. */
export function gatewayResourceUri(slug: string, upstreamUri: string): string {
  return `${SCHEME}${slug}/${upstreamUri}`;
}

export function parseGatewayResourceUri(uri: string): { slug: string; upstreamUri: string } | null {
  if (!uri.startsWith(SCHEME)) return null;
  const rest = uri.slice(SCHEME.length);
  const slash = rest.indexOf("/");
  if (slash <= 0 || slash === rest.length - 1) return null;
  return { slug: rest.slice(0, slash), upstreamUri: rest.slice(slash + 1) };
}
