"use client";

import { Boxes, Globe } from "lucide-react";
import { useActionState, useEffect, useRef, useState } from "react";
import { createIntegrationAction } from "@/app/(app)/integrations/actions";
import { ActionForm } from "@/components/forms/action-form";
import type { FormState } from "@/components/forms/form-state";
import { SubmitButton } from "@/components/forms/submit-button";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardDescription, CardTitle } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import type { PresetCredential } from "@/lib/mcp/presets";
import { CustomServerFields } from "./custom-server-fields";

export interface CatalogItem {
  key: string;
  name: string;
  description: string;
  transport: string;
  url?: string;
  bundled: boolean;
  credentials: PresetCredential[];
  docsUrl?: string;
}

export function AddIntegration({ catalog, allowStdio }: { catalog: CatalogItem[]; allowStdio: boolean }) {
  const [choice, setChoice] = useState<string | null>(null);
  const [state, action] = useActionState<FormState, FormData>(createIntegrationAction, {});
  const entry = catalog.find((item) => item.key === choice);
  // Focus follows the choice: to the chosen server's form, and back to its card on "Back".
  const [lastChoice, setLastChoice] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const cards = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (choice) heading.current?.focus();
    else if (lastChoice)
      cards.current?.querySelector<HTMLElement>(`[data-testid="catalog-${CSS.escape(lastChoice)}"]`)?.focus();
  }, [choice, lastChoice]);

  if (!choice) {
    return (
      <div ref={cards} className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        {catalog.map((item) => (
          <button
            key={item.key}
            type="button"
            onClick={() => setChoice(item.key)}
            className="grid gap-2 rounded-lg border bg-card p-4 text-left shadow-xs hover:border-primary focus-visible:outline-2 focus-visible:outline-ring"
            data-testid={`catalog-${item.key}`}
          >
            <span className="flex items-center gap-2 font-medium">
              {item.bundled ? (
                <Boxes className="h-4 w-4 text-primary" aria-hidden />
              ) : (
                <Globe className="h-4 w-4 text-primary" aria-hidden />
              )}
              {item.name}
            </span>
            <span className="text-sm text-muted-foreground">{item.description}</span>
            <span>
              {item.bundled ? <Badge>Bundled · works offline</Badge> : <Badge>Remote · needs a token</Badge>}
            </span>
          </button>
        ))}
        <button
          type="button"
          onClick={() => setChoice("custom")}
          className="grid gap-2 rounded-lg border border-dashed bg-card p-4 text-left hover:border-primary"
          data-testid="catalog-custom"
        >
          <span className="font-medium">Custom server</span>
          <span className="text-sm text-muted-foreground">
            Any MCP server over Streamable HTTP or SSE, with optional authentication.
          </span>
        </button>
      </div>
    );
  }

  return (
    <Card className="grid max-w-2xl gap-4">
      <div className="flex items-start justify-between gap-3">
        <div>
          <CardTitle ref={heading} tabIndex={-1} className="outline-none">
            {entry ? entry.name : "Custom server"}
          </CardTitle>
          <CardDescription>{entry ? entry.description : "Connect an MCP server by its URL."}</CardDescription>
        </div>
        <Button
          variant="ghost"
          size="sm"
          onClick={() => {
            setLastChoice(choice);
            setChoice(null);
          }}
        >
          Back
        </Button>
      </div>
      <ActionForm action={action} state={state} className="grid gap-4" noValidate>
        {state.error && !state.fields ? <Alert>{state.error}</Alert> : null}
        {entry ? (
          <>
            <input type="hidden" name="source" value="catalog" />
            <input type="hidden" name="presetKey" value={entry.key} />
            <Field
              id="name"
              label="Name"
              hint="Optional: how this integration is called in your organization."
            >
              <Input
                id="name"
                name="name"
                placeholder={entry.name.replace(/\s*\(.*\)$/, "")}
                defaultValue={state.values?.name}
              />
            </Field>
            {entry.credentials.map((credential) => (
              <Field
                key={credential.key}
                id={`credential-${credential.key}`}
                label={credential.label}
                hint={credential.help ?? "Stored encrypted; never shown again."}
                error={state.fields?.[`credentials.${credential.key}`]?.[0]}
              >
                <Input
                  id={`credential-${credential.key}`}
                  name={`credential:${credential.key}`}
                  type="password"
                  autoComplete="off"
                  required
                />
              </Field>
            ))}
          </>
        ) : (
          <>
            <input type="hidden" name="source" value="custom" />
            <CustomServerFields state={state} allowStdio={allowStdio} />
          </>
        )}
        <Field
          id="timeoutSeconds"
          label="Timeout (seconds)"
          hint="How long one call may take before it fails."
          error={state.fields?.timeoutMs?.[0]}
        >
          <Input
            id="timeoutSeconds"
            name="timeoutSeconds"
            type="number"
            min={1}
            max={300}
            defaultValue={state.values?.timeoutSeconds ?? "30"}
          />
        </Field>
        <SubmitButton pendingText="Adding…">Add integration</SubmitButton>
      </ActionForm>
    </Card>
  );
}
