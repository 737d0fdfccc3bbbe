import { SdkError, SdkErrorCode } from "@modelcontextprotocol/client";
import { StdioClientTransport as ModernStdioTransport } from "@modelcontextprotocol/client/stdio";
import type { McpConnectionConfig } from "../types";
import type { McpSession } from "./connect";
import { settledWithin, withDeadline } from "./deadline";
import { asLegacyError, ModernUpstreamClient } from "./modern-client";
import { modernSession } from "./modern-session";
import { forgetRevision, type RevisionKey, rememberedRevision, rememberRevision } from "./revision-memory";

type StdioConfig = Extract<McpConnectionConfig, { transport: "stdio" }>;

// How much longer than its timeout a connection may take to settle before it is given up.
const DEADLINE_GRACE_MS = 1000;
// The v2 transport gives a process 4 s to exit before it kills it; a probe's process is killed after 1 s.
const EXIT_WAIT_MS = 5000;

/**
 * A stdio server's process at 2026-07-28 on the v2 client, or undefined when the server does not speak it. The
 * v2 client asks `server/discover` of a sibling process of its own, which it has ended before it starts the
 * session's process, so one process place covers both; a server known to speak it is started once, with its
 * remembered answer. A server that does not is remembered as such at once: its probe cost a process start.
 */
export async function connectModernStdio(
  config: StdioConfig,
  env: Record<string, string>,
  server: RevisionKey,
): Promise<McpSession | undefined> {
  const upstream = new ModernUpstreamClient(config.timeoutMs);
  const transport = new ModernStdioTransport({
    command: config.command,
    args: config.args,
    env,
    stderr: "ignore",
  });
  let exited = () => {};
  const gone = new Promise<void>((resolve) => {
    exited = resolve;
  });
  // The client chains its own handler after this one: it runs once the session's process has exited.
  transport.onclose = () => exited();
  const prior = rememberedRevision(server);
  const seconds = Math.round(config.timeoutMs / 1000);
  const connecting = upstream.client.connect(transport, {
    timeout: config.timeoutMs,
    ...(prior ? { prior } : {}),
  });
  try {
    await withDeadline(
      connecting,
      config.timeoutMs + DEADLINE_GRACE_MS,
      `The MCP server did not finish the handshake within ${seconds} s.`,
    );
  } catch (error) {
    forgetRevision(server);
    // A failed start is reported once its processes are gone: closing the transport ends a probe still under
    // way, whose process the client has reaped by the time the connection settles; a session's process that
    // started all the same is closed and waited for.
    let started = false;
    await transport.close().catch(() => {});
    await settledWithin(
      connecting.then(() => (started = true)),
      EXIT_WAIT_MS,
    );
    if (started) {
      await upstream.close().catch(() => {});
      await settledWithin(gone, EXIT_WAIT_MS);
    }
    // The probe found no 2026-07-28 (an error, silence or the process exiting): the 2025 handshake comes next.
    if (error instanceof SdkError && error.code === SdkErrorCode.EraNegotiationFailed) {
      rememberRevision(server, { kind: "legacy" });
      return undefined;
    }
    throw asLegacyError(error, config.timeoutMs);
  }
  return modernSession(upstream, config, server, "stdio", async () => {
    await upstream.close();
    // Its process place is free only once the process has exited.
    await settledWithin(gone, EXIT_WAIT_MS);
  });
}
