// The rule capabilities are named by, `mcp__<namespace>__<action>`: free of server code, so the form can show it too.

export const CAPABILITY_TOOL_PREFIX = "mcp__";
export const CAPABILITY_TOOL_SEPARATOR = "__";

/** A capability's tool name, as MCP clients and models see it. */
export function capabilityToolName(namespace: string, action: string): string {
  return `${CAPABILITY_TOOL_PREFIX}${namespace}${CAPABILITY_TOOL_SEPARATOR}${action}`;
}

/** Whether a tool name is of the form capabilities are listed under (whether or not such a capability exists). */
export function isCapabilityToolName(name: string): boolean {
  return name.startsWith(CAPABILITY_TOOL_PREFIX);
}
