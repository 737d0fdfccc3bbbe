import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { SandboxResult } from "@/lib/capabilities/sandbox";

/**
 * What one surface may see of the organization's tools. Every field narrows; an absent field keeps everything
 * (the REST API and the gateway pass their API key's scope, the chat its agent's choices and its conversation's
 * state). A tool out of scope is unknown: not listed, and called it answers as a name that does not exist.
 */
export interface ToolScope {
  /** Built-in tools by name. */
  builtins?: readonly string[];
  /** Integrations whose tools are listed (still only enabled ones). */
  integrationIds?: readonly string[];
  /** Capabilities by id. */
  capabilityIds?: readonly string[];
  /** Listed names switched off (a conversation's switches). */
  hiddenTools?: readonly string[];
  /** Code and schema from the capability editor, listed under its name instead of what is stored. */
  draft?: DraftCapability;
}

export interface DraftCapability {
  /** The stored capability it stands for, if it was saved before. */
  id?: string;
  namespace: string;
  action: string;
  description: string;
  parametersSchema: Record<string, unknown>;
  /** What it declares of its result and of itself; null or absent: nothing. */
  outputSchema?: Record<string, unknown> | null;
  annotations?: ToolAnnotations | null;
  code: string;
  /** Sees the sandbox run itself (logs, duration, tool calls), which the editor's test panel shows. */
  onRun?: (run: SandboxResult) => void;
}

export function allows(list: readonly string[] | undefined, value: string): boolean {
  return list === undefined || list.includes(value);
}
