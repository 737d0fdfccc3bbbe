"use client";

import { useId, useState, useTransition } from "react";
import { chooseModelAction } from "@/app/(app)/chat/[id]/actions";
import { Select } from "@/components/ui/input";
import type { ConversationModels } from "@/lib/chat/chat-models";

/** The conversation's model, chosen among those the organization allows; the agent's is the default. */
export function ModelPicker({
  conversationId,
  models,
  value,
  onChange,
  disabled,
}: {
  conversationId: string;
  models: ConversationModels;
  value: string;
  onChange: (model: string) => void;
  disabled?: boolean;
}) {
  const id = useId();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string>();
  return (
    <span className="flex min-w-0 flex-wrap items-center gap-2">
      <label htmlFor={id}>Model</label>
      <Select
        id={id}
        className="h-8 w-auto max-w-full min-w-0 text-xs"
        value={value}
        disabled={disabled || pending || models.models.length < 2}
        onChange={(event) => {
          const next = event.target.value;
          const before = value;
          onChange(next);
          setError(undefined);
          startTransition(async () => {
            const result = await chooseModelAction(conversationId, next);
            if (result.error) {
              setError(result.error);
              onChange(before);
            }
          });
        }}
      >
        {models.models.map((model) => (
          <option key={model} value={model}>
            {model === models.agentDefault ? `${model} (agent's default)` : model}
          </option>
        ))}
      </Select>
      {error ? (
        <span role="alert" className="text-destructive">
          {error}
        </span>
      ) : null}
    </span>
  );
}
