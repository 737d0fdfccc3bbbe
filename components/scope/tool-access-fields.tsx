"use client";

import { useState } from "react";
import { ScopeFieldset } from "@/components/agents/scope-fieldset";
import { Field } from "@/components/ui/field";
import { Select } from "@/components/ui/input";
import { ACCESS_CHOICES, type AccessChoice, type ToolAccessValues } from "@/lib/api-keys/tool-access-schema";
import type { ScopeChoices } from "@/lib/tools/scope-choices";

const accessLabels: Record<AccessChoice, string> = {
  all: "Every tool of the organization",
  knowledge: "Read-only knowledge (the built-in knowledge tools)",
  chosen: "Chosen integrations and capabilities",
};

/**
 * What an API key or an authorized client may use: everything, the knowledge tools, or chosen integrations and
 * capabilities (and the built-ins). Read back with toolAccessFromForm.
 */
export function ToolAccessFields({
  id,
  choices,
  initial,
  fieldError,
}: {
  /** The select's id; each form has its own. */
  id: string;
  choices: ScopeChoices;
  initial: ToolAccessValues;
  fieldError: (...names: string[]) => string | undefined;
}) {
  const [access, setAccess] = useState<string>(initial.access);
  return (
    <>
      <div className="grid content-start gap-3">
        <Field id={id} label="May use" error={fieldError("access")}>
          <Select id={id} name="access" value={access} onChange={(event) => setAccess(event.target.value)}>
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
            checkedIds={initial.integrationIds}
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
            checkedIds={initial.capabilityIds}
            emptyMessage="The organization has no capabilities yet."
            error={fieldError("scope.capabilityIds", "capabilityScope")}
            noteBelow
          />
          <label className="flex items-start gap-2 text-sm">
            <input type="checkbox" name="builtins" defaultChecked={initial.builtins} className="mt-1" />
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
    </>
  );
}
