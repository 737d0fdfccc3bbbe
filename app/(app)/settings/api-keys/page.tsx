import type { Metadata } from "next";
import { forbidden } from "next/navigation";
import { Badge } from "@/components/ui/badge";
import { Card, CardDescription, CardTitle } from "@/components/ui/card";
import { listApiKeys } from "@/lib/api-keys/api-keys";
import { expiryLabel, scopeSummary } from "@/lib/api-keys/key-descriptions";
import { isAdminRole } from "@/lib/auth/context";
import { requireSignedInPage } from "@/lib/auth/request-context";
import { scopeChoices } from "@/lib/tools/scope-choices";
import { CreateApiKeyForm, RevokeApiKeyButton } from "./api-key-forms";

export const metadata: Metadata = { title: "API keys" };

const date = (iso: string | null) =>
  iso ? new Date(iso).toLocaleString("en", { dateStyle: "medium", timeStyle: "short" }) : "never";

export default async function ApiKeysPage() {
  const { db, ctx } = await requireSignedInPage();
  if (!isAdminRole(ctx.role)) forbidden();
  const [keys, choices] = await Promise.all([listApiKeys(db, ctx), scopeChoices(db, ctx)]);
  const names = {
    integrations: new Map(choices.integrations.map((integration) => [integration.id, integration.name])),
    capabilities: new Map(choices.capabilities.map((capability) => [capability.id, capability.name])),
  };
  const now = new Date();
  return (
    <div className="grid gap-6">
      <div>
        <h1 className="text-2xl font-semibold">API keys</h1>
        <p className="mt-1 text-sm text-muted-foreground">
          External systems call <code>GET /api/mcp/tools</code> and <code>POST /api/mcp/invoke</code>, and MCP
          clients connect to <code>/api/mcp</code>, with <code>Authorization: Bearer &lt;key&gt;</code>,
          acting for this organization.
        </p>
      </div>
      <Card>
        <CardTitle>Create a key</CardTitle>
        <CardDescription>
          Name it after what will use it, so you know what to revoke. Give it only the tools it needs and an
          expiry, so a leaked key can do little, and not for long.
        </CardDescription>
        <CreateApiKeyForm choices={choices} />
      </Card>
      <Card className="p-0">
        {keys.length === 0 ? (
          <p className="p-5 text-sm text-muted-foreground">No keys yet.</p>
        ) : (
          <ul className="divide-y" aria-label="API keys">
            {keys.map((key) => {
              const expiry = expiryLabel(key.expiresAt, now);
              return (
                <li
                  key={key.id}
                  className="flex flex-wrap items-center gap-3 px-5 py-3"
                  data-testid="api-key-row"
                >
                  <div className="min-w-0 flex-1">
                    <p className="text-sm font-medium">
                      {key.name} <code className="text-xs text-muted-foreground">{key.prefix}…</code>
                      {key.metaToolsOnly ? <Badge className="ml-2">Meta-tools only</Badge> : null}
                      {expiry.expired && !key.revokedAt ? (
                        <Badge className="ml-2 border-destructive text-destructive">Expired</Badge>
                      ) : null}
                    </p>
                    <p className="text-xs text-muted-foreground" data-testid="api-key-scope">
                      {scopeSummary(key.scope, names)}
                    </p>
                    <p className="text-xs text-muted-foreground">
                      Created {date(key.createdAt)} · last used {date(key.lastUsedAt)} ·{" "}
                      <span
                        data-testid="api-key-expiry"
                        title={key.expiresAt ? date(key.expiresAt) : undefined}
                      >
                        {expiry.expired ? `Expired ${date(key.expiresAt)}` : expiry.text}
                      </span>
                    </p>
                  </div>
                  {key.revokedAt ? (
                    <Badge>Revoked</Badge>
                  ) : (
                    <RevokeApiKeyButton id={key.id} name={key.name} />
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </Card>
    </div>
  );
}
