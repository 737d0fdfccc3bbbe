import type { Database } from "@/db/client";
import { recordAudit } from "@/lib/audit/record-audit";
import { type RequestContext, requireAdmin } from "@/lib/auth/context";
import { getEnv } from "@/lib/env";
import { ForbiddenError, ValidationError } from "@/lib/errors";
import { publishCatalogChange } from "@/lib/tools/catalog-changes";
import { parseInput } from "@/lib/validation";
import { findPreset, isPresetOffered } from "../presets";
import { insertIntegration, type NewMcpIntegration } from "../repository";
import { freeIntegrationSlug } from "./free-slug";
import { integrationAuditFields, integrationAuditTarget, integrationSecretNames } from "./integration-audit";
import { type CreateIntegrationInput, createIntegrationSchema } from "./integration-input";
import { type IntegrationView, toView } from "./integration-view";
import { presetCredentials } from "./preset-credentials";
import { sealSecrets } from "./seal-secrets";
import { checkServerUrl } from "./server-url";

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
    const entry = findPreset(input.presetKey);
    if (!entry)
      throw new ValidationError(`There is no catalog entry "${input.presetKey}".`, {
        presetKey: ["Unknown entry"],
      });
    if (!isPresetOffered(entry)) {
      const message = `The "${entry.name.replace(/\s*\(.*\)$/, "")}" reference server is a demo: ${entry.demo?.reason}. Set MCP_DEMO_SERVERS=true to offer demo servers.`;
      throw new ValidationError(message, { presetKey: [message] });
    }
    const { authType, values: credentials } = presetCredentials(entry, input.credentials);
    const name = input.name ?? entry.name.replace(/\s*\(.*\)$/, "");
    values = {
      organizationId: ctx.orgId,
      name,
      slug: await freeIntegrationSlug(db, ctx.orgId, name),
      transport: entry.transport,
      url: entry.url ?? null,
      authType,
      credentialsEncrypted: sealSecrets(credentials),
      presetKey: entry.key,
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
      envEncrypted: sealSecrets(input.env),
      timeoutMs: input.timeoutMs ?? defaultTimeout,
    };
  } else {
    checkServerUrl(input.url);
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
      credentialsEncrypted: sealSecrets(credentials),
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
    ...integrationAuditTarget(row),
    after: integrationAuditFields(row),
    changedSecrets: integrationSecretNames(row),
  });
  return toView(row);
}
