"use client";

import {
  type KeyboardEvent as ReactKeyboardEvent,
  type ReactNode,
  useEffect,
  useId,
  useRef,
  useState,
} from "react";
import { cn } from "@/lib/cn";

/** The panel's items that take focus, in order: its buttons and links. */
const itemsOf = (panel: HTMLElement | null) =>
  Array.from(panel?.querySelectorAll<HTMLElement>("button:not([disabled]), a[href]") ?? []);

const STEPS: Record<string, (at: number, count: number) => number> = {
  ArrowDown: (at, count) => (at + 1) % count,
  ArrowUp: (at, count) => (at - 1 + count) % count,
  Home: () => 0,
  End: (_at, count) => count - 1,
};

/**
 * A button that opens a menu below it, as a menu button behaves for the keyboard: opening focuses the checked
 * item (or the first), the arrow keys, Home and End move between items, Escape closes and returns to the
 * button, Tab closes; an outside click or a choice closes too.
 */
export function Dropdown({
  trigger,
  label,
  align = "start",
  className,
  children,
  testId,
}: {
  trigger: ReactNode;
  /**
   * The button's accessible name, when its content cannot be: it must then contain the visible text. Without it,
   * the content names the button (with visually hidden words where the visible ones say too little).
   */
  label?: string;
  align?: "start" | "end";
  className?: string;
  testId?: string;
  children: (close: () => void) => ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const id = useId();
  useEffect(() => {
    if (!open) return;
    const items = itemsOf(panel.current);
    (items.find((item) => item.getAttribute("aria-checked") === "true") ?? items[0])?.focus();
    const onPointer = (event: PointerEvent) => {
      if (!ref.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener("pointerdown", onPointer);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("pointerdown", onPointer);
      document.removeEventListener("keydown", onKey);
    };
  }, [open]);
  const onPanelKey = (event: ReactKeyboardEvent<HTMLDivElement>) => {
    if (event.key === "Tab") return setOpen(false);
    const step = STEPS[event.key];
    const items = itemsOf(panel.current);
    if (!step || items.length === 0) return;
    event.preventDefault();
    const at = items.indexOf(document.activeElement as HTMLElement);
    items[step(Math.max(at, 0), items.length)]?.focus();
  };
  return (
    <div ref={ref} className={cn("relative", className)}>
      <button
        ref={button}
        type="button"
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={id}
        data-testid={testId}
        onClick={() => setOpen((value) => !value)}
        onKeyDown={(event) => {
          if (event.key === "ArrowDown" || event.key === "ArrowUp") {
            event.preventDefault();
            setOpen(true);
          }
        }}
        className="flex w-full items-center gap-2 rounded-md px-2 py-1.5 text-left text-sm hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring"
      >
        {trigger}
      </button>
      {open ? (
        // biome-ignore lint/a11y/noStaticElementInteractions: the keys move focus between the menu's own items
        <div
          ref={panel}
          id={id}
          onKeyDown={onPanelKey}
          className={cn(
            "absolute z-50 mt-1 min-w-56 rounded-md border bg-card p-1 shadow-lg",
            align === "end" ? "right-0" : "left-0",
          )}
        >
          {children(() => setOpen(false))}
        </div>
      ) : null}
    </div>
  );
}

export function DropdownItem({ className, ...props }: React.ButtonHTMLAttributes<HTMLButtonElement>) {
  return (
    <button
      type="button"
      className={cn(
        "flex w-full items-center gap-2 rounded px-2 py-1.5 text-left text-sm hover:bg-muted disabled:opacity-50",
        className,
      )}
      {...props}
    />
  );
}
