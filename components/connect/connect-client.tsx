"use client";

import { type ReactNode, useState } from "react";
import { CreateApiKeyForm } from "@/app/(app)/settings/api-keys/api-key-forms";
import { CopyBlock } from "@/components/ui/copy-block";
import { cn } from "@/lib/cn";
import { clientConfigs, signInClients } from "@/lib/gateway/client-configs";

const PLACEHOLDER = "<your API key>";

/** Tabs of clients, each with its panel. */
function ClientTabs<T extends { id: string; name: string }>({
  label,
  clients,
  panel,
  testId,
}: {
  label: string;
  clients: T[];
  panel: (client: T) => ReactNode;
  testId: string;
}) {
  const [selected, setSelected] = useState(clients[0]?.id ?? "");
  const client = clients.find((c) => c.id === selected) ?? clients[0];
  return (
    <>
      <div className="flex flex-wrap gap-2" role="tablist" aria-label={label}>
        {clients.map((c) => (
          <button
            key={c.id}
            type="button"
            role="tab"
            aria-selected={c.id === client?.id}
            className={cn(
              "rounded-md border px-3 py-1.5 text-sm",
              c.id === client?.id ? "bg-primary text-primary-foreground" : "hover:bg-muted",
            )}
            onClick={() => setSelected(c.id)}
          >
            {c.name}
          </button>
        ))}
      </div>
      {client ? (
        <div role="tabpanel" className="grid gap-2" data-testid={testId}>
          {panel(client)}
        </div>
      ) : null}
    </>
  );
}

/**
 * The gateway's address, first for clients that sign in (Claude, ChatGPT, VS Code: paste it, sign in, choose what
 * they may use), then for those that take an API key: a key made on the spot, and each client's configuration with
 * that key filled in.
 */
export function ConnectClient({ endpoint, canCreateKey }: { endpoint: string; canCreateKey: boolean }) {
  const [key, setKey] = useState<string>();
  const configs = clientConfigs(endpoint, key ?? PLACEHOLDER);
  return (
    <div className="grid gap-6">
      <section className="grid gap-2" aria-labelledby="endpoint-title">
        <h2 id="endpoint-title" className="font-medium">
          The address
        </h2>
        <CopyBlock text={endpoint} />
      </section>
      <section className="grid gap-3" aria-labelledby="sign-in-title">
        <h2 id="sign-in-title" className="font-medium">
          Connect by signing in
        </h2>
        <p className="text-sm text-muted-foreground">
          Paste the address into the app. It opens Switchboard in the browser: sign in, choose the
          organization and what the app may use, and it is connected, with no key to copy. Connected apps
          lists it, with Revoke.
        </p>
        <ClientTabs
          label="Apps that sign in"
          clients={signInClients(endpoint)}
          testId="sign-in-steps"
          panel={(client) => (
            <>
              <p className="text-sm">{client.steps}</p>
              {client.text ? <CopyBlock text={client.text} /> : null}
            </>
          )}
        />
      </section>
      <section className="grid gap-4" aria-labelledby="with-key-title">
        <div>
          <h2 id="with-key-title" className="font-medium">
            Or connect with an API key
          </h2>
          <p className="text-sm text-muted-foreground">For scripts, CI, and clients that do not sign in.</p>
        </div>
        <section className="grid gap-2" aria-labelledby="key-title">
          <h3 id="key-title" className="text-sm font-medium">
            1. An API key
          </h3>
          {canCreateKey ? (
            <>
              <p className="text-sm text-muted-foreground">
                Create a key for this client; it goes into the configuration below. It is shown only once.
              </p>
              <CreateApiKeyForm defaultName="MCP client" onCreated={setKey} />
            </>
          ) : (
            <p className="text-sm text-muted-foreground">
              Ask an owner or admin of this organization for an API key, and put it where the configuration
              says <code>{PLACEHOLDER}</code>.
            </p>
          )}
        </section>
        <section className="grid gap-3" aria-labelledby="config-title">
          <h3 id="config-title" className="text-sm font-medium">
            2. The client&apos;s configuration
          </h3>
          <ClientTabs
            label="MCP clients"
            clients={configs}
            testId="client-config"
            panel={(config) => (
              <>
                <p className="text-sm text-muted-foreground">{config.where}</p>
                <CopyBlock text={config.text} />
              </>
            )}
          />
        </section>
      </section>
    </div>
  );
}
