import { and, eq, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { agents, type DiscoveredSnapshot } from "@/db/schema";
import { auditPick, changedFields, recordAudit } from "@/lib/audit/record-audit";
import { type RequestContext, requireAdmin } from "@/lib/auth/context";
import { encryptSecret } from "@/lib/crypto/secret-box";
import { getEnv } from "@/lib/env";
import { AppError, type FieldErrors, ForbiddenError, NotFoundError, ValidationError } from "@/lib/errors";
import { slugify } from "@/lib/orgs/schemas";
import { integrationToolDescriptor, invokeTool, UnknownToolError } from "@/lib/tools/catalog";
import { publishCatalogChange } from "@/lib/tools/catalog-changes";
import type { ToolResult } from "@/lib/tools/types";
import { parseInput } from "@/lib/validation";
import { type CatalogEntry, findCatalogEntry, isCatalogEntryOffered } from "./catalog";
import { assertPublicLiteral, PrivateNetworkError } from "./client/network-guard";
import { getMcpClient } from "./client/shared-client";
import { untilAborted } from "./client/until-aborted";
import { McpConnectionError, McpErrorCode } from "./errors";
import {
  type CreateIntegrationInput,
  createIntegrationSchema,
  type UpdateIntegrationInput,
  updateIntegrationSchema,
} from "./integration-input";
import { deletePendingFlows } from "./oauth/connect-integration";
import {
  loadOAuthConnections,
  type OAuthConnections,
  type OAuthIntegrationView,
  oauthView,
} from "./oauth/oauth-view";
import { deleteIntegrationCredentials } from "./oauth/stored-credentials";
import {
  deleteIntegrationForOrg,
  findIntegrationForOrg,
  insertIntegration,
  listIntegrationSlugsStartingWith,
  listIntegrationsForOrg,
  type McpIntegration,
  type McpIntegrationPatch,
  type NewMcpIntegration,
  setIntegrationEnabledForOrg,
  updateIntegrationForOrg,
} from "./repository";
import type { CapabilitiesResult, McpAuthType, McpTransport } from "./types";
import { mcpUseCases } from "./use-cases";

/** What the browser may see of an integration: never a credential value, only which ones are set. */
export interface IntegrationView {
  id: string;
  name: string;
  slug: string;
  transport: McpTransport;
  url: string | null;
  command: string | null;
  args: string[];
  authType: McpAuthType;
  credentialKeys: string[];
  catalogKey: string | null;
  enabled: boolean;
  timeoutMs: number;
  status: "unknown" | "connected" | "failing" | "disabled";
  lastError: string | null;
  lastCheckedAt: string | null;
  lastLatencyMs: number | null;
  counts: { tools: number; resources: number; prompts: number } | null;
  discovered: DiscoveredSnapshot | null;
  oauth: OAuthIntegrationView | null;
}

export function toView(row: McpIntegration, connections?: OAuthConnections): IntegrationView {
  const catalogEntry = row.catalogKey ? findCatalogEntry(row.catalogKey) : undefined;
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    transport: row.transport,
    url: row.url,
    // A bundled server's command is resolved on the server at connect time; show what it is instead.
    command: catalogEntry?.bundled ? catalogEntry.bundled.packageName : row.command,
    args: catalogEntry?.bundled ? [] : row.args,
    authType: row.authType,
    credentialKeys: Object.keys(row.credentialsEncrypted),
    catalogKey: row.catalogKey,
    enabled: row.enabled,
    timeoutMs: row.timeoutMs,
    status: row.enabled ? row.status : "disabled",
    lastError: row.lastError,
    lastCheckedAt: row.lastCheckedAt?.toISOString() ?? null,
    lastLatencyMs: row.lastLatencyMs,
    counts: row.discovered
      ? {
          tools: row.discovered.tools.length,
          resources: row.discovered.resources.length,
          prompts: row.discovered.prompts.length,
        }
      : null,
    discovered: row.discovered ?? null,
    oauth: oauthView(row, connections),
  };
}

export async function listIntegrations(db: Database, ctx: RequestContext): Promise<IntegrationView[]> {
  const rows = await listIntegrationsForOrg(db, ctx.orgId);
  const connections = rows.some((row) => row.authType === "oauth")
    ? await loadOAuthConnections(db, ctx)
    : undefined;
  return rows.map((row) => toView(row, connections));
}

async function loadForOrg(db: Database, ctx: RequestContext, id: string): Promise<McpIntegration> {
  const row = await findIntegrationForOrg(db, ctx.orgId, id);
  if (!row) throw new NotFoundError("That integration");
  return row;
}

export async function getIntegration(
  db: Database,
  ctx: RequestContext,
  id: string,
): Promise<IntegrationView> {
  const row = await loadForOrg(db, ctx, id);
  return toView(row, row.authType === "oauth" ? await loadOAuthConnections(db, ctx) : undefined);
}

function checkUrl(url: string) {
  if (getEnv().MCP_ALLOW_PRIVATE_NETWORKS) return;
  try {
    assertPublicLiteral(new URL(url));
  } catch (error) {
    if (error instanceof PrivateNetworkError)
      throw new ValidationError(error.message, { url: [error.message] });
    throw error;
  }
}

const seal = (values: Record<string, string>) =>
  Object.fromEntries(Object.entries(values).map(([key, value]) => [key, encryptSecret(value)]));

/** Slugs name tools (`<slug>_<tool>`), so they stay short and unique within the organization. */
async function freeIntegrationSlug(db: Database, orgId: string, name: string): Promise<string> {
  const base = slugify(name).replaceAll("-", "_").slice(0, 24).replace(/_+$/, "") || "mcp";
  const taken = new Set(await listIntegrationSlugsStartingWith(db, orgId, base));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}_${n}`)) return `${base}_${n}`;
}

function catalogCredentials(entry: CatalogEntry, given: Record<string, string>) {
  const missing = entry.credentials.filter((credential) => !given[credential.key]?.trim());
  if (missing.length > 0) {
    const fields = Object.fromEntries(
      missing.map((c) => [`credentials.${c.key}`, [`Enter the ${c.label}.`]]),
    );
    throw new ValidationError(`${entry.name} needs: ${missing.map((c) => c.label).join(", ")}.`, fields);
  }
  const bearer = entry.credentials.find((c) => c.kind === "bearer");
  const values = Object.fromEntries(entry.credentials.map((c) => [c.key, (given[c.key] ?? "").trim()]));
  return {
    authType: (bearer ? "bearer" : entry.credentials.length ? "headers" : "none") as McpAuthType,
    values,
  };
}

/** Adds an integration from the catalog (asking only for what the entry needs) or a custom server. */
export async function createIntegration(
  db: Database,
  ctx: RequestContext,
  raw: CreateIntegrationInput,
  // The operator CLI already has a shell on this server, so it may add command-line servers.
  options: { operator?: boolean } = {},
): Promise<IntegrationView> {
  requireAdmin(ctx);
  const input = parseInput(createIntegrationSchema, raw);
  const defaultTimeout = getEnv().MCP_TIMEOUT_MS;
  let values: NewMcpIntegration;
  if (input.source === "catalog") {
    const entry = findCatalogEntry(input.catalogKey);
    if (!entry)
      throw new ValidationError(`There is no catalog entry "${input.catalogKey}".`, {
        catalogKey: ["Unknown entry"],
      });
    if (!isCatalogEntryOffered(entry)) {
      const message = `The "${entry.name.replace(/\s*\(.*\)$/, "")}" reference server is a demo: ${entry.demo?.reason}. Set MCP_DEMO_SERVERS=true to offer demo servers.`;
      throw new ValidationError(message, { catalogKey: [message] });
    }
    const { authType, values: credentials } = catalogCredentials(entry, input.credentials);
    const name = input.name ?? entry.name.replace(/\s*\(.*\)$/, "");
    values = {
      organizationId: ctx.orgId,
      name,
      slug: await freeIntegrationSlug(db, ctx.orgId, name),
      transport: entry.transport,
      url: entry.url ?? null,
      authType,
      credentialsEncrypted: seal(credentials),
      catalogKey: entry.key,
      timeoutMs: input.timeoutMs ?? defaultTimeout,
    };
  } else if (input.transport === "stdio") {
    if (!options.operator && (!ctx.isSuperadmin || !getEnv().MCP_ALLOW_STDIO)) {
      throw new ForbiddenError(
        "Command-line (stdio) servers run programs on this server: only a superadmin can add them, and only when MCP_ALLOW_STDIO=true. Bundled servers from the catalog are always available.",
      );
    }
    values = {
      organizationId: ctx.orgId,
      name: input.name,
      slug: await freeIntegrationSlug(db, ctx.orgId, input.name),
      transport: "stdio",
      command: input.command,
      args: input.args,
      envEncrypted: seal(input.env),
      timeoutMs: input.timeoutMs ?? defaultTimeout,
    };
  } else {
    checkUrl(input.url);
    if (input.authType === "bearer" && !input.token) {
      throw new ValidationError("Enter the bearer token, or choose no authentication.", {
        token: ["Enter the token."],
      });
    }
    const credentials =
      input.authType === "bearer"
        ? { token: input.token ?? "" }
        : input.authType === "headers"
          ? input.headers
          : input.authType === "oauth" && input.oauthClientId && input.oauthClientSecret
            ? { clientSecret: input.oauthClientSecret }
            : {};
    if (input.authType === "oauth" && input.oauthClientSecret && !input.oauthClientId) {
      throw new ValidationError("Enter the client id that goes with the client secret.", {
        oauthClientId: ["Enter the client id."],
      });
    }
    values = {
      organizationId: ctx.orgId,
      name: input.name,
      slug: await freeIntegrationSlug(db, ctx.orgId, input.name),
      transport: input.transport,
      url: input.url,
      authType: input.authType,
      credentialsEncrypted: seal(credentials),
      oauth:
        input.authType === "oauth"
          ? {
              credentials: input.oauthCredentials,
              ...(input.oauthScope ? { scope: input.oauthScope } : {}),
              ...(input.oauthClientId ? { clientId: input.oauthClientId } : {}),
            }
          : null,
      timeoutMs: input.timeoutMs ?? defaultTimeout,
    };
  }
  const row = await insertIntegration(db, values);
  await publishCatalogChange(db, ctx.orgId);
  await recordAudit(db, ctx, {
    action: "integration.create",
    ...auditTarget(row),
    after: auditFields(row),
    changedSecrets: secretNames(row),
  });
  return toView(row);
}

const auditTarget = (row: McpIntegration) => ({
  targetType: "integration",
  targetId: row.id,
  targetName: row.name,
});
/** The fields an audit entry may show: never credentials or environment values, whose names alone are kept. */
const auditFields = (row: McpIntegration) =>
  auditPick(row, [
    "name",
    "transport",
    "url",
    "command",
    "args",
    "authType",
    "timeoutMs",
    "enabled",
    "catalogKey",
  ]);
const secretNames = (row: McpIntegration) => [
  ...Object.keys(row.credentialsEncrypted).map((key) => `credentials.${key}`),
  ...Object.keys(row.envEncrypted).map((key) => `env.${key}`),
];

/** Edits an integration; credentials left blank keep their stored values. */
export async function updateIntegration(
  db: Database,
  ctx: RequestContext,
  id: string,
  raw: UpdateIntegrationInput,
): Promise<IntegrationView> {
  requireAdmin(ctx);
  const input = parseInput(updateIntegrationSchema, raw);
  const row = await loadForOrg(db, ctx, id);
  const patch: McpIntegrationPatch = { updatedAt: new Date() };
  if (input.name) patch.name = input.name;
  if (input.timeoutMs) patch.timeoutMs = input.timeoutMs;
  if (row.transport !== "stdio" && !row.catalogKey) {
    if (input.url) {
      checkUrl(input.url);
      patch.url = input.url;
    }
    if (input.transport) patch.transport = input.transport;
    const authType = input.authType ?? row.authType;
    patch.authType = authType;
    if (authType !== "none" && originChanged(row.url, input.url))
      requireFreshCredentials(row, input, authType, new URL(input.url as string).origin);
    if (authType === "none") patch.credentialsEncrypted = {};
    if (authType === "bearer") {
      const kept = row.authType === "bearer" ? row.credentialsEncrypted.token : undefined;
      if (!input.token && !kept)
        throw new ValidationError("Enter the bearer token.", { token: ["Enter the token."] });
      patch.credentialsEncrypted = { token: input.token ? encryptSecret(input.token) : (kept as string) };
    }
    if (authType === "oauth") Object.assign(patch, oauthPatch(row, input));
    if (authType === "headers" && input.headers) {
      const previous = row.authType === "headers" ? row.credentialsEncrypted : {};
      patch.credentialsEncrypted = Object.fromEntries(
        Object.entries(input.headers).flatMap(([name, value]) =>
          value ? [[name, encryptSecret(value)]] : previous[name] ? [[name, previous[name]]] : [],
        ),
      );
    }
  } else if (row.catalogKey && input.credentials) {
    const next = { ...row.credentialsEncrypted };
    for (const [key, value] of Object.entries(input.credentials))
      if (value.trim() && key in next) next[key] = encryptSecret(value.trim());
    patch.credentialsEncrypted = next;
  }
  if (row.authType === "oauth" && patch.authType !== "oauth") patch.oauth = null;
  const updated = await updateIntegrationForOrg(db, ctx.orgId, id, patch);
  // Tokens belong to the server, client and mode they were granted for: a change there needs a new connection.
  if (updated && row.authType === "oauth" && oauthConnectionChanged(row, updated)) {
    await deleteIntegrationCredentials(db, updated.id);
    // A consent still pending was asked of the old server; its code must not be redeemed with the new one.
    await deletePendingFlows(db, updated.id);
  }
  await publishCatalogChange(db, ctx.orgId);
  await getMcpClient().pool.closeIntegration(id);
  if (updated) {
    const credentialsChanged =
      JSON.stringify(updated.credentialsEncrypted) !== JSON.stringify(row.credentialsEncrypted);
    await recordAudit(db, ctx, {
      action: "integration.update",
      ...auditTarget(updated),
      ...changedFields(auditFields(row), auditFields(updated)),
      changedSecrets: credentialsChanged ? ["credentials"] : [],
    });
  }
  return toView(updated ?? row);
}

/** True when an edit points the integration at another scheme, host or port than before. */
function originChanged(before: string | null, after: string | undefined): boolean {
  if (!after || !before) return false;
  try {
    return new URL(before).origin !== new URL(after).origin;
  } catch {
    return true;
  }
}

/**
 * Stored secrets belong to the server they were entered for. When an edit moves the integration to another
 * origin, keeping them would send the saved token, headers or client secret to whatever server the new URL
 * names, so every stored secret the integration would still use must be entered again in the same edit. The
 * edit is refused (rather than the secrets silently cleared) so the admin learns at once which fields to fill,
 * instead of finding an integration that fails with 401s later; a header can also be left out to remove it.
 */
function requireFreshCredentials(
  row: McpIntegration,
  input: ReturnType<typeof updateIntegrationSchema.parse>,
  authType: McpAuthType,
  origin: string,
) {
  const why = `The URL now points to another server (${origin}), and saved secrets are not sent to a new server.`;
  const stored = row.authType === authType ? row.credentialsEncrypted : {};
  if (authType === "bearer" && stored.token && !input.token) {
    throw new ValidationError(`Enter the bearer token again. ${why}`, {
      token: ["Enter the token again for the new server."],
    });
  }
  if (authType === "headers") {
    const storedNames = Object.keys(stored);
    const kept = input.headers ? storedNames.filter((name) => input.headers?.[name] === "") : storedNames;
    if (kept.length > 0) {
      throw new ValidationError(`Enter the values of ${kept.join(", ")} again, or remove them. ${why}`, {
        headers: [`Enter the values of ${kept.join(", ")} again for the new server, or remove them.`],
      });
    }
  }
  if (authType === "oauth" && stored.clientSecret && !input.oauthClientSecret) {
    const clientId = input.oauthClientId !== undefined ? input.oauthClientId : row.oauth?.clientId;
    if (clientId) {
      throw new ValidationError(`Enter the client secret again. ${why}`, {
        oauthClientSecret: ["Enter the client secret again for the new server."],
      });
    }
  }
}

/** The OAuth part of an edit; a new server or client drops what was learnt about the old one. */
function oauthPatch(row: McpIntegration, input: ReturnType<typeof updateIntegrationSchema.parse>) {
  const previous = row.authType === "oauth" ? row.oauth : null;
  const clientId = input.oauthClientId !== undefined ? input.oauthClientId : previous?.clientId;
  const sameServer = !input.url || input.url === row.url;
  const sameClient = (clientId || undefined) === (previous?.clientId || undefined);
  const oauth = {
    credentials: input.oauthCredentials ?? previous?.credentials ?? "organization",
    ...((input.oauthScope ?? previous?.scope) ? { scope: input.oauthScope ?? previous?.scope } : {}),
    ...(clientId ? { clientId } : {}),
    ...(sameServer && previous?.discovery ? { discovery: previous.discovery } : {}),
  };
  const kept = previous ? row.credentialsEncrypted : {};
  const credentialsEncrypted: Record<string, string> = {};
  if (clientId && input.oauthClientSecret)
    credentialsEncrypted.clientSecret = encryptSecret(input.oauthClientSecret);
  else if (clientId && sameClient && kept.clientSecret) credentialsEncrypted.clientSecret = kept.clientSecret;
  if (!clientId && sameServer && kept.registeredClient)
    credentialsEncrypted.registeredClient = kept.registeredClient;
  return { oauth, credentialsEncrypted };
}

function oauthConnectionChanged(before: McpIntegration, after: McpIntegration): boolean {
  if (after.authType !== "oauth") return true;
  return (
    before.url !== after.url ||
    before.oauth?.credentials !== after.oauth?.credentials ||
    (before.oauth?.clientId ?? "") !== (after.oauth?.clientId ?? "")
  );
}

export async function setIntegrationEnabled(db: Database, ctx: RequestContext, id: string, enabled: boolean) {
  requireAdmin(ctx);
  const row = await loadForOrg(db, ctx, id);
  await setIntegrationEnabledForOrg(db, ctx.orgId, id, enabled);
  await publishCatalogChange(db, ctx.orgId);
  if (!enabled) await getMcpClient().pool.closeIntegration(id);
  await recordAudit(db, ctx, {
    action: enabled ? "integration.enable" : "integration.disable",
    ...auditTarget(row),
    before: { enabled: row.enabled },
    after: { enabled },
  });
}

export async function deleteIntegration(db: Database, ctx: RequestContext, id: string) {
  requireAdmin(ctx);
  const row = await loadForOrg(db, ctx, id);
  await db.transaction(async (tx) => {
    await deleteIntegrationForOrg(tx, ctx.orgId, row.id);
    // Agents that listed it stop listing it, instead of reporting a missing integration at each conversation.
    await tx
      .update(agents)
      .set({ mcpIntegrationIds: sql`${agents.mcpIntegrationIds} - ${row.id}::text` })
      .where(and(eq(agents.organizationId, ctx.orgId), sql`${agents.mcpIntegrationIds} ? ${row.id}::text`));
    await publishCatalogChange(db, ctx.orgId, { executor: tx });
  });
  await getMcpClient().pool.closeIntegration(id);
  await recordAudit(db, ctx, { action: "integration.delete", ...auditTarget(row), before: auditFields(row) });
}

export type ConnectionTestResult =
  | { ok: true; latencyMs: number; capabilities: CapabilitiesResult }
  | { ok: false; latencyMs: number; error: string };

// Unavailable answers a test reports as its outcome: the server could not be reached, or no process may start.
const TEST_OUTCOMES = new Set<string>([McpErrorCode.MCP_CONNECTION_FAILED, McpErrorCode.MCP_PROCESS_LIMIT]);

/**
 * "Test connection": a live discovery, whose outcome is also stored as the integration's status; `signal`
 * cancels it on the server, and then nothing is stored (except for a first check, which goes on).
 */
export async function testIntegration(
  db: Database,
  ctx: RequestContext,
  id: string,
  { signal }: { signal?: AbortSignal } = {},
): Promise<ConnectionTestResult> {
  const row = await loadForOrg(db, ctx, id);
  const started = performance.now();
  try {
    const discover = mcpUseCases(db).discover;
    // The first check of an integration runs to its end even when the browser stops waiting (leaving the page
    // right after adding it, say): every surface needs its tools. Later checks are cancelled on the server.
    const capabilities = row.discovered
      ? await discover.execute(ctx, { integrationId: row.id }, { signal })
      : await (signal
          ? untilAborted(
              discover.execute(ctx, { integrationId: row.id }),
              signal,
              () => new McpConnectionError(row.id, "The call was cancelled before the server answered."),
            )
          : discover.execute(ctx, { integrationId: row.id }));
    return { ok: true, latencyMs: Math.round(performance.now() - started), capabilities };
  } catch (error) {
    if (!(error instanceof AppError) || (error.status >= 500 && !TEST_OUTCOMES.has(error.code))) throw error;
    return { ok: false, latencyMs: Math.round(performance.now() - started), error: error.message };
  }
}

/** What the tool runner shows: the tool's result, or why the call was refused, with a message per bad field. */
export type ToolRunResult = ToolResult & { fields?: FieldErrors };

/**
 * Runs one tool of an integration for the tool runner, through the catalog like every other surface, in a scope
 * holding only that integration: the arguments are checked against the tool's schema first (a ValidationError
 * names each bad field, as REST would), and the call is recorded with surface "runner". The tool's own failures
 * come back as error results; refusals (bad arguments, a disabled integration, an unknown tool) throw.
 */
export async function runIntegrationTool(
  db: Database,
  ctx: RequestContext,
  id: string,
  toolName: string,
  args: Record<string, unknown>,
  { signal }: { signal?: AbortSignal } = {},
): Promise<ToolResult> {
  const row = await loadForOrg(db, ctx, id);
  // Its tools and their schemas are known only from a discovery: one never made is made now, and a failure (not
  // connected yet, refused credentials, unreachable) says why instead of the tool being unknown.
  if (row.enabled && !row.discovered) await mcpUseCases(db).discover.execute(ctx, { integrationId: row.id });
  const tool = row.discovered?.tools.find((t) => t.name === toolName) ?? {
    name: toolName,
    inputSchema: { type: "object" },
  };
  const name = integrationToolDescriptor(row, tool).name;
  try {
    return await invokeTool(db, ctx, name, args, {
      surface: "runner",
      scope: { integrationIds: [row.id], builtins: [], capabilityIds: [] },
      signal,
    });
  } catch (error) {
    if (!(error instanceof UnknownToolError)) throw error;
    // The catalog knows a disabled integration's tools only from a discovery; one never discovered is still disabled.
    if (!row.enabled)
      throw new ForbiddenError(`The integration "${row.name}" is disabled; enable it to run its tools.`);
    throw new NotFoundError(`The tool "${toolName}" of ${row.name}`);
  }
}
