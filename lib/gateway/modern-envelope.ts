import { ClientCapabilitiesSchema, LoggingLevelSchema } from "@modelcontextprotocol/core";
import {
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  LOG_LEVEL_META_KEY,
  type LoggingLevel,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { z } from "zod";

// The SDK has checked the envelope before any handler runs; its published types leave it untyped, so it is read
// here with the same schemas.
const envelopeSchema = z.object({
  [CLIENT_CAPABILITIES_META_KEY]: ClientCapabilitiesSchema.optional(),
  [LOG_LEVEL_META_KEY]: LoggingLevelSchema.optional(),
});

/** What a 2026-07-28 request says about its client in its `_meta`: its capabilities and the log level it wants. */
export function envelopeOf(call: ServerContext): {
  capabilities: ClientCapabilities;
  logLevel?: LoggingLevel;
} {
  const parsed = envelopeSchema.safeParse(call.mcpReq.envelope ?? {});
  const envelope = parsed.success ? parsed.data : {};
  return {
    capabilities: envelope[CLIENT_CAPABILITIES_META_KEY] ?? {},
    logLevel: envelope[LOG_LEVEL_META_KEY],
  };
}
