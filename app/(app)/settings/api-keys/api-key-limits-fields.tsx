"use client";

import { useState } from "react";
import type { FormState } from "@/components/forms/form-state";
import { ToolAccessFields } from "@/components/scope/tool-access-fields";
import { Field } from "@/components/ui/field";
import { Input, Select } from "@/components/ui/input";
import type { ScopeChoices } from "@/lib/tools/scope-choices";
import { EXPIRY_CHOICES } from "./choices";

/** What a key can be limited to: the organization's integrations and capabilities. */
export type ApiKeyChoices = ScopeChoices;

const expiryLabels: Record<(typeof EXPIRY_CHOICES)[number], string> = {
  never: "Never",
  "30": "In 30 days",
  "90": "In 90 days",
  "365": "In a year",
  date: "On a date…",
};

const idsOf = (kept: string | undefined) => (kept ? kept.split(",").filter(Boolean) : null);

/** The key's expiry and scope fields of the create-key form; a key without them never expires and may use all. */
export function ApiKeyLimitsFields({ choices, state }: { choices: ApiKeyChoices; state: FormState }) {
  const [expiresIn, setExpiresIn] = useState<string>("never");
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
      <ToolAccessFields
        id="key-access"
        choices={choices}
        initial={{
          access: "all",
          integrationIds: idsOf(state.values?.integrationIds),
          capabilityIds: idsOf(state.values?.capabilityIds),
          builtins: true,
        }}
        fieldError={fieldError}
      />
    </div>
  );
}
