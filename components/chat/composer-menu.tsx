"use client";

import { cn } from "@/lib/cn";

export interface MenuItem {
  key: string;
  label: string;
  detail?: string;
  hint?: string;
}

/** The suggestions under the message box (slash commands, resources), navigable with the arrow keys. */
export function ComposerMenu({
  id,
  label,
  items,
  activeIndex,
  onPick,
  empty,
}: {
  id: string;
  label: string;
  items: MenuItem[];
  activeIndex: number;
  onPick: (index: number) => void;
  empty: string;
}) {
  return (
    <div className="absolute bottom-full left-0 z-10 mb-2 w-full max-w-lg rounded-md border bg-card shadow-lg">
      <p className="border-b px-3 py-1.5 text-xs text-muted-foreground">{label}</p>
      {items.length === 0 ? (
        <p className="px-3 py-2 text-sm text-muted-foreground">{empty}</p>
      ) : (
        <div id={id} role="listbox" aria-label={label} className="max-h-64 overflow-y-auto py-1">
          {items.map((item, index) => (
            // Focus stays in the message box; the active option is announced through aria-activedescendant.
            <div
              key={item.key}
              id={`${id}-${index}`}
              role="option"
              tabIndex={-1}
              aria-selected={index === activeIndex}
              className={cn(
                "cursor-pointer px-3 py-1.5 text-sm",
                index === activeIndex ? "bg-muted" : "hover:bg-muted/60",
              )}
              // mousedown, not click: the textarea keeps its focus.
              onMouseDown={(event) => {
                event.preventDefault();
                onPick(index);
              }}
            >
              <span className="font-medium">{item.label}</span>
              {item.detail ? <span className="ml-2 text-xs text-muted-foreground">{item.detail}</span> : null}
              {item.hint ? (
                <span className="block truncate text-xs text-muted-foreground">{item.hint}</span>
              ) : null}
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
