import type { McpConnectionConfig } from "../types";
import type { McpSession } from "./connect";
import type { ModernUpstreamClient } from "./modern-client";
import { type RevisionKey, rememberRevision } from "./revision-memory";

/**
 * A connection at 2026-07-28 as a session of the pool: it follows what the server says changed, and the server's
 * discover answer is remembered, so the next connection skips the question. Such a connection has no session id.
 */
export function modernSession(
  upstream: ModernUpstreamClient,
  config: Pick<McpConnectionConfig, "onListChanged" | "onResourceUpdated">,
  server: RevisionKey,
  transport: "streamable-http" | "stdio",
  close: () => Promise<void> = () => upstream.close(),
): McpSession {
  upstream.followChanges({ listChanged: config.onListChanged, resourceUpdated: config.onResourceUpdated });
  const discover = upstream.client.getDiscoverResult();
  if (discover) rememberRevision(server, { kind: "modern", discover });
  return { client: upstream, era: "modern", transport, sessionId: () => undefined, stale: false, close };
}
