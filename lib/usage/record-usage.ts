import { sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import type { RequestContext } from "@/lib/auth/context";
import { logger, redact } from "@/lib/logger";
import { isUuid } from "@/lib/validation";

export interface UsageEntry {
  /** Where the call came from: "runner" is an integration page's tool runner, "test-run" the capability editor. */
  surface: "chat" | "rest" | "gateway" | "capability" | "runner" | "test-run";
  tool: string;
  source?: "builtin" | "integration" | "capability";
  integrationId?: string;
  capabilityId?: string;
  outcome: "ok" | "tool_error" | "failed";
  latencyMs: number;
  errorCode?: string;
  /** Kept only when the organization turned payload recording on, and then with secrets redacted. */
  arguments?: unknown;
  result?: unknown;
}

const MAX_PAYLOAD_CHARS = 10_000;

// Operator and system contexts carry names, not ids; those calls are recorded without a who.
const uuidOrNull = (value: string | undefined) => (value && isUuid(value) ? value : null);

/** Tools often return JSON as text: such text is parsed, so its secrets are redacted like any other field. */
function expandJsonText(value: unknown, depth = 0): unknown {
  if (depth > 8) return value;
  if (typeof value === "string" && /^\s*[{[]/.test(value)) {
    try {
      return expandJsonText(JSON.parse(value), depth + 1);
    } catch {
      return value;
    }
  }
  if (Array.isArray(value)) return value.map((item) => expandJsonText(item, depth + 1));
  if (value && typeof value === "object")
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, expandJsonText(item, depth + 1)]),
    );
  return value;
}

/** A payload as stored: secrets redacted by the logger's rules, and cut when large. */
export function payloadForRecord(value: unknown): string | null {
  if (value === undefined) return null;
  const json = JSON.stringify(redact(expandJsonText(value)));
  if (json === undefined) return null;
  return json.length <= MAX_PAYLOAD_CHARS
    ? json
    : JSON.stringify({ truncated: true, preview: json.slice(0, MAX_PAYLOAD_CHARS) });
}

/**
 * Records one tool call for the dashboard, in one statement that also reads whether the organization keeps
 * payloads; a failure to record is logged and never fails the call.
 */
export async function recordUsage(db: Database, ctx: RequestContext, entry: UsageEntry): Promise<void> {
  const args = payloadForRecord(entry.arguments);
  const result = payloadForRecord(entry.result);
  try {
    await db.execute(sql`
      insert into usage_records (organization_id, user_id, api_key_id, surface, tool, source, integration_id,
                                 capability_id, outcome, latency_ms, error_code, arguments, result)
      select o.id, ${uuidOrNull(ctx.userId)}::uuid, ${uuidOrNull(ctx.apiKeyId)}::uuid, ${entry.surface}, ${entry.tool},
             ${entry.source ?? null}, ${entry.integrationId ?? null}::uuid, ${entry.capabilityId ?? null}::uuid,
             ${entry.outcome}, ${Math.max(0, Math.round(entry.latencyMs))}, ${entry.errorCode ?? null},
             case when o.record_tool_payloads then ${args}::jsonb end,
             case when o.record_tool_payloads then ${result}::jsonb end
      from organizations o where o.id = ${ctx.orgId}::uuid`);
  } catch (error) {
    logger.warn("usage not recorded", { tool: entry.tool, orgId: ctx.orgId, err: error });
  }
}
