import { Badge } from "@/components/ui/badge";
import { type ScopeNames, scopeSummary } from "@/lib/api-keys/key-descriptions";
import type { GrantView } from "@/lib/oauth-server/grants";
import { ClientIdentity } from "./client-identity";
import { RevokeGrantButton } from "./revoke-grant-button";

const date = (iso: string | null) =>
  iso ? new Date(iso).toLocaleString("en", { dateStyle: "medium", timeStyle: "short" }) : "never";

const endpointLabel = (resource: GrantView["resource"]) =>
  resource === "gateway"
    ? "Gateway (/api/mcp)"
    : `Integration ${resource.slice("integrations/".length)} alone (/api/mcp/${resource})`;

/** Connected apps as a list: who, where, what they may use, when granted and last used, and Revoke. */
export function GrantList({
  grants,
  namesFor,
  showPerson,
  label,
}: {
  grants: GrantView[];
  namesFor: (orgId: string) => ScopeNames;
  showPerson: boolean;
  label: string;
}) {
  return (
    <ul className="divide-y" aria-label={label}>
      {grants.map((grant) => (
        <li key={grant.id} className="flex flex-wrap items-center gap-3 px-5 py-3" data-testid="grant-row">
          <div className="grid min-w-0 flex-1 gap-1">
            <ClientIdentity client={grant.client} />
            <p className="text-sm">
              {showPerson ? (
                <>
                  {grant.person.name} <span className="text-muted-foreground">({grant.person.email})</span> ·{" "}
                </>
              ) : null}
              {grant.organization.name} · {endpointLabel(grant.resource)}
              {grant.metaToolsOnly ? <Badge className="ml-2">Meta-tools only</Badge> : null}
            </p>
            <p className="text-xs text-muted-foreground" data-testid="grant-scope">
              {scopeSummary(grant.scope, namesFor(grant.organization.id))}
            </p>
            <p className="text-xs text-muted-foreground">
              Granted {date(grant.createdAt)} · last used {date(grant.lastUsedAt)}
            </p>
          </div>
          <RevokeGrantButton id={grant.id} name={grant.client.name} />
        </li>
      ))}
    </ul>
  );
}
