/** How to connect a client by signing in: where to paste the address; the client then opens the sign-in page. */
export interface SignInClient {
  id: string;
  name: string;
  steps: string;
  /** A configuration to paste, for clients configured by a file. */
  text?: string;
}

export function signInClients(endpoint: string): SignInClient[] {
  return [
    {
      id: "claude",
      name: "Claude",
      steps:
        "Settings → Connectors → Add custom connector: name it, paste the address, Add; then Connect, and sign in to Switchboard when it opens. Claude Desktop and mobile use the connectors of the same account.",
    },
    {
      id: "chatgpt",
      name: "ChatGPT",
      steps:
        "Settings → Apps & Connectors → Advanced settings: turn on developer mode; then Create, paste the address as the MCP server URL, choose OAuth, and sign in to Switchboard when it opens.",
    },
    {
      id: "vscode",
      name: "VS Code",
      steps:
        "Command palette → MCP: Add Server… → HTTP, paste the address; or put this in .vscode/mcp.json. VS Code opens the browser to sign in the first time it starts the server.",
      text: JSON.stringify({ servers: { switchboard: { type: "http", url: endpoint } } }, null, 2),
    },
  ];
}

/** Ready-to-paste configurations that point MCP clients at the gateway with an API key. */
export interface ClientConfig {
  id: string;
  name: string;
  where: string;
  text: string;
}

export function clientConfigs(endpoint: string, key: string): ClientConfig[] {
  const authorization = `Bearer ${key}`;
  const json = (value: unknown) => JSON.stringify(value, null, 2);
  return [
    {
      id: "claude",
      name: "Claude Desktop",
      where:
        "Settings → Developer → Edit Config (claude_desktop_config.json); it reaches remote servers through mcp-remote.",
      text: json({
        mcpServers: {
          switchboard: {
            command: "npx",
            // mcp-remote expands ${VAR} in its arguments from env, which keeps the space in "Bearer …" intact.
            // biome-ignore lint/suspicious/noTemplateCurlyInString: a placeholder for mcp-remote, not for JavaScript
            args: ["-y", "mcp-remote", endpoint, "--header", "Authorization:${SWITCHBOARD_AUTH}"],
            env: { SWITCHBOARD_AUTH: authorization },
          },
        },
      }),
    },
    {
      id: "cursor",
      name: "Cursor",
      where: "~/.cursor/mcp.json, or .cursor/mcp.json in a project.",
      text: json({
        mcpServers: { switchboard: { url: endpoint, headers: { Authorization: authorization } } },
      }),
    },
    {
      id: "vscode",
      name: "VS Code",
      where: ".vscode/mcp.json in the workspace (or MCP: Open User Configuration).",
      text: json({
        servers: { switchboard: { type: "http", url: endpoint, headers: { Authorization: authorization } } },
      }),
    },
    {
      id: "inspector",
      name: "MCP Inspector",
      where: "Run it, then choose Streamable HTTP, paste the URL, and add the Authorization header.",
      text: `npx @modelcontextprotocol/inspector\n\nTransport: Streamable HTTP\nURL: ${endpoint}\nHeader: Authorization: ${authorization}`,
    },
  ];
}
