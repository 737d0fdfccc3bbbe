import { randomBytes } from "node:crypto";
import { z } from "zod";
import { SdkMcpClient } from "@/lib/mcp/client/mcp-client";
import { McpSessionPool } from "@/lib/mcp/client/session-pool";
import { McpOAuthFailedError } from "@/lib/mcp/errors";
import { type AuthChallenge, beginAuthorization, completeAuthorization } from "@/lib/mcp/oauth/authorization";
import { authorizeOnChallenge } from "@/lib/mcp/oauth/authorize-on-challenge";
import {
  followUnattendedAuthorization,
  openLoopbackRedirect,
  responseFromRedirect,
} from "@/lib/mcp/oauth/loopback-redirect";
import { MemoryOAuthConnection } from "@/lib/mcp/oauth/memory-connection";
import { ConnectOAuthProvider, type PreRegisteredClient } from "@/lib/mcp/oauth/sdk-auth-provider";
import type { McpConnectionConfig, ToolExecutionResult } from "@/lib/mcp/types";
import { CliUsageError, type StandaloneCliCommand } from "../command";

const ID = "cli";
// A person may take a while on a consent page; an unattended server answers at once.
const USER_WAIT_MS = 5 * 60_000;

// The official MCP conformance suite hands pre-registered client credentials to the client under test this way.
// It may also name tools to call, with their arguments.
const conformanceContext = z
  .object({
    client_id: z.string().min(1),
    client_secret: z.string().optional(),
    toolCalls: z.array(z.object({ name: z.string().min(1), arguments: z.record(z.string(), z.unknown()) })),
  })
  .partial();

function readConformanceContext(): z.infer<typeof conformanceContext> {
  try {
    return conformanceContext.parse(JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}"));
  } catch {
    return {};
  }
}

function preRegisteredClient(values: Record<string, unknown>): PreRegisteredClient | undefined {
  const fromFlags = typeof values["client-id"] === "string" ? values["client-id"] : undefined;
  const fromContext = readConformanceContext();
  const clientId = fromFlags ?? fromContext.client_id;
  if (!clientId) return undefined;
  const secret = typeof values["client-secret"] === "string" ? values["client-secret"] : undefined;
  return { clientId, clientSecret: secret ?? (fromFlags ? undefined : fromContext.client_secret) };
}

const toolArguments = z.record(z.string(), z.unknown());

/** The tools to call after listing: the one named by --call (with --arguments), then those the suite names. */
function callsToMake(
  values: Record<string, unknown>,
): { name: string; arguments: Record<string, unknown> }[] {
  const name = typeof values.call === "string" ? values.call.trim() : undefined;
  const raw = typeof values.arguments === "string" ? values.arguments : undefined;
  if (raw !== undefined && !name) throw new CliUsageError("--arguments needs --call <tool>.");
  if (values.call !== undefined && !name) throw new CliUsageError("--call needs a tool name.");
  const calls = readConformanceContext().toolCalls ?? [];
  if (!name) return calls;
  let parsed: unknown = {};
  if (raw !== undefined) {
    try {
      parsed = JSON.parse(raw);
    } catch {
      throw new CliUsageError('--arguments must be a JSON object, such as \'{"text":"hi"}\'.');
    }
  }
  const args = toolArguments.safeParse(parsed);
  if (!args.success) throw new CliUsageError('--arguments must be a JSON object, such as \'{"text":"hi"}\'.');
  return [{ name, arguments: args.data }, ...calls];
}

/** A call's text parts, or its error message, as one line to print. */
function resultText(result: ToolExecutionResult): string {
  if (result.content === null) return result.errorMessage ?? "no answer";
  const texts = result.content.flatMap((part) => (part.type === "text" ? [part.text] : [`[${part.type}]`]));
  return texts.join(" ") || "(no content)";
}

function parseUrl(raw: string | undefined): string {
  if (!raw) throw new CliUsageError("Give the MCP server's URL.");
  try {
    const url = new URL(raw);
    if (url.protocol === "http:" || url.protocol === "https:") return url.href;
  } catch {}
  throw new CliUsageError(`"${raw}" is not an http:// or https:// URL.`);
}

/** One authorization code grant for the CLI, the redirect caught on a loopback port. */
async function authorize(
  url: string,
  connection: MemoryOAuthConnection,
  challenge: AuthChallenge,
  options: { scope?: string; client?: PreRegisteredClient },
) {
  const loopback = await openLoopbackRedirect();
  try {
    const state = randomBytes(16).toString("base64url");
    const provider = new ConnectOAuthProvider({
      redirectUrl: loopback.redirectUrl,
      state,
      scope: options.scope,
      store: connection,
      client: options.client,
    });
    const authorizationUrl = await beginAuthorization(provider, url, challenge, fetch);
    let redirect = await followUnattendedAuthorization(authorizationUrl, loopback.redirectUrl, fetch);
    if (!redirect) {
      console.error(`Open this address in a browser to authorize:\n  ${authorizationUrl.href}`);
      redirect = await loopback.waitForRedirect(USER_WAIT_MS);
    }
    await completeAuthorization(provider, url, responseFromRedirect(redirect, state), fetch);
  } catch (error) {
    throw new McpOAuthFailedError(ID, `Authorization failed: ${(error as Error).message}`, error);
  } finally {
    await loopback.close();
  }
}

export const mcpConnect: StandaloneCliCommand = {
  name: "mcp:connect",
  standalone: true,
  usage:
    "mcp:connect <url> [--client-id <id>] [--client-secret <secret>] [--scope <scopes>] [--call <tool> [--arguments <json>]]",
  description:
    "Connect to a Streamable HTTP MCP server with the app's client, through OAuth when the server asks for it, list its tools, and call one if asked.",
  options: {
    "client-id": { type: "string" },
    "client-secret": { type: "string" },
    scope: { type: "string" },
    call: { type: "string" },
    arguments: { type: "string" },
  },
  async run({ values, positionals }, io) {
    const url = parseUrl(positionals[0]);
    const calls = callsToMake(values);
    const connection = new MemoryOAuthConnection();
    const options = {
      scope: typeof values.scope === "string" ? values.scope : undefined,
      client: preRegisteredClient(values),
    };
    const pool = new McpSessionPool({ idleMs: 60_000 });
    try {
      const config: McpConnectionConfig = {
        integrationId: ID,
        orgId: ID,
        timeoutMs: 30_000,
        transport: "streamable-http",
        url,
        headers: {},
        allowPrivateNetwork: true,
        // Servers may challenge on any request, for more scope too; each challenge runs a new grant.
        oauth: {
          owner: "cli",
          authorize: (fetchFn) =>
            authorizeOnChallenge(fetchFn, {
              accessToken: async () => connection.accessToken(),
              authorize: (challenge) => authorize(url, connection, challenge, options),
            }),
        },
      };
      const client = new SdkMcpClient(pool);
      const { tools } = await client.listFeatures(config);
      // Each tool asked for is called once; one the suite names only if the server lists it.
      const listed = new Set(tools.map((tool) => tool.name));
      const named = typeof values.call === "string" ? values.call.trim() : undefined;
      if (named && !listed.has(named)) throw new CliUsageError(`The server lists no tool named "${named}".`);
      const called = [];
      for (const call of calls) {
        if (!listed.has(call.name)) continue;
        const result = await client.executeTool(config, call.name, call.arguments);
        called.push({ name: call.name, isError: result.isError, text: resultText(result) });
      }
      const authorized = connection.accessToken() !== undefined;
      io.print(
        [
          `Connected to ${url}${authorized ? " with OAuth" : ""}.`,
          `Tools (${tools.length})`,
          ...tools.map(
            (tool) => `  ${tool.name}${tool.description ? ` — ${tool.description.split("\n")[0]}` : ""}`,
          ),
          ...called.map((call) => `Called ${call.name}${call.isError ? " (an error)" : ""}: ${call.text}`),
        ].join("\n"),
        {
          url,
          oauth: authorized,
          tools: tools.map(({ name, description }) => ({ name, description })),
          ...(called.length > 0 ? { called } : {}),
        },
      );
    } finally {
      await pool.closeAll();
    }
  },
};
