import type { Transport } from "@modelcontextprotocol/client";
import { z } from "zod";

/** A listing's answer: its tools, each read on its own (one the server got wrong says nothing of the others). */
const ListedSchema = z.object({ result: z.object({ tools: z.array(z.unknown()) }) });

/** A listed tool, as far as its task support goes. */
const ToolSchema = z.looseObject({
  name: z.string(),
  execution: z
    .looseObject({ taskSupport: z.enum(["required", "optional", "forbidden"]).optional() })
    .optional(),
});

export type TaskSupport = Map<string, "required" | "optional" | "forbidden">;

const tapped = new WeakMap<Transport, TaskSupport>();

/**
 * What a 2026-07-28 server says of its tools' task support (`execution.taskSupport`, the tasks extension's), read
 * from its tools/list answers as they arrive on the transport: the v2 client's codec deletes `execution` from
 * 2026-era tools before the listing reaches its caller. Tapped once per transport; the map follows the latest
 * listing of each tool.
 */
export function taskSupportOn(transport: Transport): TaskSupport {
  const known = tapped.get(transport);
  if (known) return known;
  const support: TaskSupport = new Map();
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    // Only a listing is parsed: a call's answer passes untouched.
    const result = "result" in message ? (message.result as Record<string, unknown> | undefined) : undefined;
    const listed =
      result && typeof result === "object" && "tools" in result ? ListedSchema.safeParse(message) : undefined;
    for (const entry of listed?.success ? listed.data.result.tools : []) {
      const tool = ToolSchema.safeParse(entry);
      if (!tool.success) continue;
      const taskSupport = tool.data.execution?.taskSupport;
      if (taskSupport) support.set(tool.data.name, taskSupport);
      else support.delete(tool.data.name);
    }
    deliver?.(message, extra);
  };
  tapped.set(transport, support);
  return support;
}
