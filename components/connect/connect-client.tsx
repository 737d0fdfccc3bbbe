"use client";

import { useState } from "react";
import { CreateApiKeyForm } from "@/app/(app)/settings/api-keys/api-key-forms";
import { CopyBlock } from "@/components/ui/copy-block";
import { cn } from "@/lib/cn";
import { clientConfigs } from "@/lib/gateway/client-configs";

const PLACEHOLDER = "<your API key>";

/** The gateway's address, a key made on the spot, and each client's configuration with that key filled in. */
export function ConnectClient({ endpoint, canCreateKey }: { endpoint: string; canCreateKey: boolean }) {
  const [key, setKey] = useState<string>();
  const configs = clientConfigs(endpoint, key ?? PLACEHOLDER);
  const [selected, setSelected] = useState(configs[0]?.id ?? "");
  const config = configs.find((c) => c.id === selected) ?? configs[0];
  return (
    <div className="grid gap-6">
      <section className="grid gap-2" aria-labelledby="endpoint-title">
        <h2 id="endpoint-title" className="font-medium">
          1. The endpoint
        </h2>
        <CopyBlock text={endpoint} />
      </section>
      <section className="grid gap-2" aria-labelledby="key-title">
        <h2 id="key-title" className="font-medium">
          2. An API key
        </h2>
        {canCreateKey ? (
          <>
            <p className="text-sm text-muted-foreground">
              Create a key for this client; it goes into the configuration below. It is shown only once.
            </p>
            <CreateApiKeyForm defaultName="MCP client" onCreated={setKey} />
          </>
        ) : (
          <p className="text-sm text-muted-foreground">
            Ask an owner or admin of this organization for an API key, and put it where the configuration says{" "}
            <code>{PLACEHOLDER}</code>.
          </p>
        )}
      </section>
      <section className="grid gap-3" aria-labelledby="config-title">
        <h2 id="config-title" className="font-medium">
          3. The client&apos;s configuration
        </h2>
        <div className="flex flex-wrap gap-2" role="tablist" aria-label="MCP clients">
          {configs.map((c) => (
            <button
              key={c.id}
              type="button"
              role="tab"
              aria-selected={c.id === config?.id}
              className={cn(
                "rounded-md border px-3 py-1.5 text-sm",
                c.id === config?.id ? "bg-primary text-primary-foreground" : "hover:bg-muted",
              )}
              onClick={() => setSelected(c.id)}
            >
              {c.name}
            </button>
          ))}
        </div>
        {config ? (
          <div role="tabpanel" className="grid gap-2" data-testid="client-config">
            <p className="text-sm text-muted-foreground">{config.where}</p>
            <CopyBlock text={config.text} />
          </div>
        ) : null}
      </section>
    </div>
  );
}
