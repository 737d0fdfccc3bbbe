"use client";

import { useState } from "react";
import { ScopeFieldset } from "@/components/agents/scope-fieldset";
import type { FormState } from "@/components/forms/form-state";
import { Field } from "@/components/ui/field";
import { Input, Select } from "@/components/ui/input";
import type { ScopeChoices } from "@/lib/tools/scope-choices";
import { ACCESS_CHOICES, EXPIRY_CHOICES } from "./choices";

/** What a key can be limited to: the organization's integrations and capabilities. */
/** What a key can be limited to. */
export type ApiKeyChoices = ScopeChoices;

const expiryLabels: Record<(typeof EXPIRY_CHOICES)[number], string> = {
  never: "Never",
  "30": "In 30 days",
  "90": "In 90 days",
  "365": "In a year",
  date: "On a date…",
};

const accessLabels: Record<(typeof ACCESS_CHOICES)[number], string> = {
  all: "Every tool of the organization",
  knowledge: "Read-only knowledge (the built-in knowledge tools)",
  chosen: "Chosen integrations and capabilities",
};

const idsOf = (kept: string | undefined) => (kept ? kept.split(",").filter(Boolean) : null);

/** The key's expiry and scope fields of the create-key form; a key without them never expires and may use all. */
export function ApiKeyLimitsFields({ choices, state }: { choices: ApiKeyChoices; state: FormState }) {
  const [expiresIn, setExpiresIn] = useState<string>("never");
  const [access, setAccess] = useState<string>("all");
  const fieldError = (...names: string[]) =>
    names.flatMap((name) => state.fields?.[name] ?? []).join(" ") || undefined;
  const today = new Date().toISOString().slice(0, 10);
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <div className="grid content-start gap-3">
        <Field id="key-expires-in" label="Expires" error={fieldError("expiresIn", "expiresInDays")}>
          <Select
            id="key-expires-in"
            name="expiresIn"
            value={expiresIn}
            onChange={(event) => setExpiresIn(event.target.value)}
          >
            {EXPIRY_CHOICES.map((value) => (
              <option key={value} value={value}>
                {expiryLabels[value]}
              </option>
            ))}
          </Select>
        </Field>
        {expiresIn === "date" ? (
          <Field
            id="key-expires-on"
            label="Expiry date"
            hint="The key works through this day (UTC)."
            error={fieldError("expiresAt")}
          >
            <Input
              id="key-expires-on"
              name="expiresOn"
              type="date"
              min={today}
              defaultValue={state.values?.expiresOn}
            />
          </Field>
        ) : null}
      </div>
      <div className="grid content-start gap-3">
        <Field id="key-access" label="May use" error={fieldError("access")}>
          <Select
            id="key-access"
            name="access"
            value={access}
            onChange={(event) => setAccess(event.target.value)}
          >
            {ACCESS_CHOICES.map((value) => (
              <option key={value} value={value}>
                {accessLabels[value]}
              </option>
            ))}
          </Select>
        </Field>
      </div>
      {access === "chosen" ? (
        <div className="grid gap-4 rounded-md border p-3 sm:col-span-2" data-testid="key-scope">
          <ScopeFieldset
            legend="Integrations"
            scopeName="integrationScope"
            allLabel="All integrations, including ones added later"
            selectedLabel="Only these"
            name="integrationIds"
            items={choices.integrations.map((integration) => ({
              id: integration.id,
              label: integration.name,
              note: integration.enabled ? undefined : "(disabled)",
            }))}
            checkedIds={idsOf(state.values?.integrationIds)}
            emptyMessage="The organization has no integrations yet."
            error={fieldError("scope.integrationIds", "integrationScope")}
          />
          <ScopeFieldset
            legend="Capabilities"
            scopeName="capabilityScope"
            allLabel="All capabilities, including ones added later"
            selectedLabel="Only these"
            name="capabilityIds"
            items={choices.capabilities.map((capability) => ({
              id: capability.id,
              label: <code>{capability.name}</code>,
              note: capability.description,
            }))}
            checkedIds={idsOf(state.values?.capabilityIds)}
            emptyMessage="The organization has no capabilities yet."
            error={fieldError("scope.capabilityIds", "capabilityScope")}
            noteBelow
          />
          <label className="flex items-start gap-2 text-sm">
            <input type="checkbox" name="builtins" defaultChecked className="mt-1" />
            <span>
              Built-in knowledge tools
              <span className="block text-xs text-muted-foreground">
                <code>node_knowledge_retriever</code> and <code>knowledge_search</code>, which only read the
                organization&apos;s knowledge.
              </span>
            </span>
          </label>
        </div>
      ) : null}
    </div>
  );
}
