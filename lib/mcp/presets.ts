import { existsSync } from "node:fs";
import path from "node:path";
import { getEnv } from "@/lib/env";
import type { McpTransport } from "./types";

export interface PresetCredential {
  /** "token" for a bearer token, otherwise the HTTP header name. */
  key: string;
  label: string;
  kind: "bearer" | "header";
  help?: string;
}

export interface Preset {
  key: string;
  name: string;
  description: string;
  transport: McpTransport;
  /** Remote servers: the endpoint. */
  url?: string;
  /**
   * Bundled servers: the package and its entry file, run with this Node.js. `dataFile` names the variable that
   * tells a server which file to keep its data in, and the file's name in the integration's own data folder.
   */
  bundled?: { packageName: string; entry: string; args: string[]; dataFile?: { env: string; name: string } };
  credentials: PresetCredential[];
  docsUrl?: string;
  /**
   * A reference or test server that can reach this host's network or files: offered only when
   * MCP_DEMO_SERVERS=true, and the reason why not.
   */
  demo?: { reason: string };
}

/** The presets, integrations predefined: reference servers shipped with the app (they work offline) and well-known remote ones. */
export const presets: Preset[] = [
  {
    key: "everything",
    name: "Everything (reference server)",
    description:
      "The MCP reference server that exercises every feature: echo, sums, images, resources and prompts.",
    transport: "stdio",
    bundled: {
      packageName: "@modelcontextprotocol/server-everything",
      entry: "dist/index.js",
      args: ["stdio"],
    },
    credentials: [],
    // Its gzip-file-as-resource tool fetches any URL from this host, past MCP_ALLOW_PRIVATE_NETWORKS.
    demo: { reason: "it can fetch any URL from this host" },
  },
  {
    key: "memory",
    name: "Memory (knowledge graph)",
    description:
      "A persistent knowledge graph of entities, relations and observations, stored in the data folder.",
    transport: "stdio",
    bundled: {
      packageName: "@modelcontextprotocol/server-memory",
      entry: "dist/index.js",
      args: [],
      dataFile: { env: "MEMORY_FILE_PATH", name: "memory.jsonl" },
    },
    credentials: [],
  },
  {
    key: "github",
    name: "GitHub",
    description: "Repositories, issues, pull requests and code search through GitHub's remote MCP server.",
    transport: "streamable-http",
    url: "https://api.githubcopilot.com/mcp/",
    credentials: [
      {
        key: "token",
        label: "Personal access token",
        kind: "bearer",
        help: "A fine-grained token with the scopes you want to expose.",
      },
    ],
    docsUrl: "https://github.com/github/github-mcp-server",
  },
  {
    key: "linear",
    name: "Linear",
    description: "Issues, projects and comments in Linear.",
    transport: "streamable-http",
    url: "https://mcp.linear.app/mcp",
    credentials: [{ key: "token", label: "API key", kind: "bearer" }],
    docsUrl: "https://linear.app/docs/mcp",
  },
  {
    key: "sentry",
    name: "Sentry",
    description: "Errors, issues and releases from Sentry.",
    transport: "streamable-http",
    url: "https://mcp.sentry.dev/mcp",
    credentials: [{ key: "token", label: "User auth token", kind: "bearer" }],
    docsUrl: "https://docs.sentry.io/product/sentry-mcp/",
  },
  {
    key: "notion",
    name: "Notion",
    description: "Search and edit pages and databases in Notion.",
    transport: "streamable-http",
    url: "https://mcp.notion.com/mcp",
    credentials: [{ key: "token", label: "Integration token", kind: "bearer" }],
    docsUrl: "https://developers.notion.com/docs/mcp",
  },
];

/** Whether this installation offers the entry for new integrations (demo entries only with MCP_DEMO_SERVERS). */
export function isPresetOffered(entry: Preset): boolean {
  return !entry.demo || getEnv().MCP_DEMO_SERVERS;
}

/** The entries to add integrations from; existing integrations of any entry keep working. */
export function offeredPresets(): Preset[] {
  return presets.filter(isPresetOffered);
}

export function findPreset(key: string): Preset | undefined {
  return presets.find((entry) => entry.key === key);
}

/** The folder of an integration's own data (a bundled server's files), under the data folder. */
export function integrationDataFolder(integrationId: string): string {
  return path.resolve(getEnv().DATA_DIR, "mcp-servers", integrationId);
}

/** The command that runs a bundled server: this Node.js and the package's entry file. */
export function bundledCommand(entry: Preset): { command: string; args: string[] } {
  if (!entry.bundled) throw new Error(`${entry.key} is not a bundled server`);
  const file = path.join(process.cwd(), "node_modules", entry.bundled.packageName, entry.bundled.entry);
  if (!existsSync(file))
    throw new Error(`The bundled server ${entry.bundled.packageName} is not installed. Run npm install.`);
  return { command: process.execPath, args: [file, ...entry.bundled.args] };
}
