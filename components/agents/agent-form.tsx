"use client";

import { useActionState, useState } from "react";
import { saveAgentAction } from "@/app/(app)/agents/actions";
import type { FormState } from "@/components/forms/form-state";
import { SubmitButton } from "@/components/forms/submit-button";
import { Alert } from "@/components/ui/alert";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";

export interface AgentFormValues {
  id: string | null;
  name: string;
  instructions: string;
  model: string;
  mcpIntegrationIds: string[] | null;
  capabilityIds: string[] | null;
  builtinTools: string[];
  requireToolApproval: boolean;
}

/**
 * Creates or edits an agent: instructions, model, which integrations, capabilities and built-in tools, and
 * approvals.
 */
export function AgentForm({
  agent,
  integrations,
  capabilities,
  builtins,
  defaultModel,
  readOnly,
}: {
  agent: AgentFormValues;
  integrations: { id: string; name: string; enabled: boolean }[];
  capabilities: { id: string; name: string; description: string }[];
  builtins: { name: string; description: string }[];
  defaultModel: string;
  readOnly: boolean;
}) {
  const [state, action] = useActionState<FormState, FormData>(saveAgentAction.bind(null, agent.id), {});
  const [scope, setScope] = useState<"all" | "selected">(
    agent.mcpIntegrationIds === null ? "all" : "selected",
  );
  const [capabilityScope, setCapabilityScope] = useState<"all" | "selected">(
    agent.capabilityIds === null ? "all" : "selected",
  );
  const fieldError = (name: string) => state.fields?.[name]?.join(" ");
  return (
    <form action={action} className="grid max-w-2xl gap-5" noValidate aria-label="Agent">
      {state.error && !state.fields ? <Alert>{state.error}</Alert> : null}
      <fieldset disabled={readOnly} className="grid gap-5">
        <Field id="agent-name" label="Name" error={fieldError("name")}>
          <Input id="agent-name" name="name" defaultValue={state.values?.name ?? agent.name} maxLength={80} />
        </Field>
        <Field
          id="agent-instructions"
          label="Instructions"
          hint="The system prompt: what the agent is for and how it should answer."
          error={fieldError("instructions")}
        >
          <textarea
            id="agent-instructions"
            name="instructions"
            rows={6}
            defaultValue={state.values?.instructions ?? agent.instructions}
            className="rounded-md border bg-card px-3 py-2 text-sm outline-none focus-visible:ring-2 focus-visible:ring-ring"
          />
        </Field>
        <Field
          id="agent-model"
          label="Model"
          hint={`Blank: the default model (${defaultModel}).`}
          error={fieldError("model")}
        >
          <Input
            id="agent-model"
            name="model"
            placeholder={defaultModel}
            defaultValue={state.values?.model ?? agent.model}
          />
        </Field>
        <fieldset className="grid gap-2">
          <legend className="text-sm font-medium">Integrations</legend>
          <label className="flex items-center gap-2 text-sm">
            <input
              type="radio"
              name="integrationScope"
              value="all"
              checked={scope === "all"}
              onChange={() => setScope("all")}
            />
            All enabled integrations, including ones added later
          </label>
          <label className="flex items-center gap-2 text-sm">
            <input
              type="radio"
              name="integrationScope"
              value="selected"
              checked={scope === "selected"}
              onChange={() => setScope("selected")}
            />
            Only these
          </label>
          {scope === "selected" ? (
            <div className="ml-6 grid gap-1.5">
              {integrations.length === 0 ? (
                <p className="text-sm text-muted-foreground">The organization has no integrations yet.</p>
              ) : null}
              {integrations.map((integration) => (
                <label key={integration.id} className="flex items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    name="integrationIds"
                    value={integration.id}
                    defaultChecked={agent.mcpIntegrationIds?.includes(integration.id)}
                  />
                  {integration.name}
                  {integration.enabled ? null : (
                    <span className="text-xs text-muted-foreground">(disabled)</span>
                  )}
                </label>
              ))}
            </div>
          ) : null}
          {fieldError("mcpIntegrationIds") ? (
            <p className="text-xs text-destructive">{fieldError("mcpIntegrationIds")}</p>
          ) : null}
        </fieldset>
        <fieldset className="grid gap-2">
          <legend className="text-sm font-medium">Capabilities</legend>
          <label className="flex items-center gap-2 text-sm">
            <input
              type="radio"
              name="capabilityScope"
              value="all"
              checked={capabilityScope === "all"}
              onChange={() => setCapabilityScope("all")}
            />
            All capabilities, including ones added later
          </label>
          <label className="flex items-center gap-2 text-sm">
            <input
              type="radio"
              name="capabilityScope"
              value="selected"
              checked={capabilityScope === "selected"}
              onChange={() => setCapabilityScope("selected")}
            />
            Only the capabilities chosen here
          </label>
          {capabilityScope === "selected" ? (
            <div className="ml-6 grid gap-1.5">
              {capabilities.length === 0 ? (
                <p className="text-sm text-muted-foreground">The organization has no capabilities yet.</p>
              ) : null}
              {capabilities.map((capability) => (
                <label key={capability.id} className="flex items-start gap-2 text-sm">
                  <input
                    type="checkbox"
                    name="capabilityIds"
                    value={capability.id}
                    defaultChecked={agent.capabilityIds?.includes(capability.id)}
                    className="mt-1"
                  />
                  <span>
                    <code>{capability.name}</code>
                    {capability.description ? (
                      <span className="block text-xs text-muted-foreground">{capability.description}</span>
                    ) : null}
                  </span>
                </label>
              ))}
            </div>
          ) : null}
          {fieldError("capabilityIds") ? (
            <p className="text-xs text-destructive">{fieldError("capabilityIds")}</p>
          ) : null}
        </fieldset>
        <fieldset className="grid gap-1.5">
          <legend className="mb-1 text-sm font-medium">Built-in tools</legend>
          {builtins.map((tool) => (
            <label key={tool.name} className="flex items-start gap-2 text-sm">
              <input
                type="checkbox"
                name="builtinTools"
                value={tool.name}
                defaultChecked={agent.builtinTools.includes(tool.name)}
                className="mt-1"
              />
              <span>
                <code>{tool.name}</code>
                <span className="block text-xs text-muted-foreground">{tool.description}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <label className="flex items-start gap-2 text-sm">
          <input
            type="checkbox"
            name="requireToolApproval"
            defaultChecked={agent.requireToolApproval}
            className="mt-1"
          />
          <span>
            Ask before running tools
            <span className="block text-xs text-muted-foreground">
              The user allows each call once or for the rest of the conversation, or denies it.
            </span>
          </span>
        </label>
      </fieldset>
      {readOnly ? null : (
        <div>
          <SubmitButton pendingText="Saving…">{agent.id ? "Save agent" : "Create agent"}</SubmitButton>
        </div>
      )}
    </form>
  );
}
