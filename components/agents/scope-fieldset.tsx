"use client";

import { type ReactNode, useState } from "react";

export interface ScopeItem {
  id: string;
  label: ReactNode;
  /** Shown after the label, e.g. "(disabled)" or a description; nothing when empty. */
  note?: ReactNode;
}

/**
 * A fieldset choosing "all" (including ones added later) or "only the selected": two radios named `scopeName`
 * ("all" / "selected"), then, when "selected", one checkbox named `name` per item (value: its id), and the
 * field's error. `checkedIds` null means "all".
 */
export function ScopeFieldset({
  legend,
  scopeName,
  allLabel,
  selectedLabel,
  name,
  items,
  checkedIds,
  emptyMessage,
  error,
  noteBelow = false,
}: {
  legend: string;
  scopeName: string;
  allLabel: string;
  selectedLabel: string;
  name: string;
  items: ScopeItem[];
  checkedIds: string[] | null;
  emptyMessage: string;
  error?: string;
  /** The note on a line of its own under the label (item aligned to the top) rather than after it. */
  noteBelow?: boolean;
}) {
  const [scope, setScope] = useState<"all" | "selected">(checkedIds === null ? "all" : "selected");
  return (
    <fieldset className="grid gap-2">
      <legend className="text-sm font-medium">{legend}</legend>
      {(["all", "selected"] as const).map((value) => (
        <label key={value} className="flex items-center gap-2 text-sm">
          <input
            type="radio"
            name={scopeName}
            value={value}
            checked={scope === value}
            onChange={() => setScope(value)}
          />
          {value === "all" ? allLabel : selectedLabel}
        </label>
      ))}
      {scope === "selected" ? (
        <div className="ml-6 grid gap-1.5">
          {items.length === 0 ? <p className="text-sm text-muted-foreground">{emptyMessage}</p> : null}
          {items.map((item) => (
            <label
              key={item.id}
              className={`flex ${noteBelow ? "items-start" : "items-center"} gap-2 text-sm`}
            >
              <input
                type="checkbox"
                name={name}
                value={item.id}
                defaultChecked={checkedIds?.includes(item.id)}
                className={noteBelow ? "mt-1" : undefined}
              />
              {noteBelow ? (
                <span>
                  {item.label}
                  {item.note ? (
                    <span className="block text-xs text-muted-foreground">{item.note}</span>
                  ) : null}
                </span>
              ) : (
                <>
                  {item.label}
                  {item.note ? <span className="text-xs text-muted-foreground">{item.note}</span> : null}
                </>
              )}
            </label>
          ))}
        </div>
      ) : null}
      {error ? <p className="text-xs text-destructive">{error}</p> : null}
    </fieldset>
  );
}
