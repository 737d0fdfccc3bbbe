import { z } from "zod";
import type { Database } from "@/db/client";
import { type RequestContext, requireAdmin } from "@/lib/auth/context";
import { invokeTool } from "@/lib/tools/catalog";
import { parseInput } from "@/lib/validation";
import { capabilityLimits, valueForCode } from "./executor";
import { runCapability, type SandboxResult } from "./sandbox";

const testRunSchema = z.object({
  code: z
    .string()
    .min(1, { error: "Enter the code." })
    .max(100_000, { error: "Use at most 100,000 characters of code." }),
  args: z.record(z.string(), z.unknown(), { error: "The arguments must be a JSON object." }),
});

/**
 * Runs code from the editor, saved or not, in the sandbox with the organization's tools, without counting
 * usage: what the editor's test panel shows.
 */
export async function testRunCapability(
  db: Database,
  ctx: RequestContext,
  input: unknown,
): Promise<SandboxResult> {
  requireAdmin(ctx);
  const { code, args } = parseInput(testRunSchema, input);
  return runCapability({
    code,
    args,
    limits: capabilityLimits(),
    callTool: async (name, toolArgs) =>
      valueForCode(await invokeTool(db, ctx, name, toolArgs, { surface: "capability", depth: 1 })),
  });
}
