"use client";

import { useRef, useState } from "react";
import { cn } from "@/lib/cn";
import { highlightJs } from "./highlight";

const COLOURS = {
  keyword: "text-violet-600 dark:text-violet-400",
  string: "text-emerald-700 dark:text-emerald-400",
  comment: "text-muted-foreground italic",
  number: "text-amber-700 dark:text-amber-400",
  plain: "",
};

const SHARED = "m-0 whitespace-pre-wrap break-words p-3 font-mono text-xs leading-5";

/** A textarea over a coloured copy of its text: syntax highlighting without an editor library. */
export function CodeEditor({
  id,
  name,
  defaultValue,
  onChange,
  disabled,
}: {
  id: string;
  name: string;
  defaultValue: string;
  onChange?: (code: string) => void;
  disabled?: boolean;
}) {
  const [code, setCode] = useState(defaultValue);
  const backdrop = useRef<HTMLPreElement>(null);
  return (
    <div className="relative min-h-64 overflow-hidden rounded-md border bg-card focus-within:ring-2 focus-within:ring-ring">
      <pre
        ref={backdrop}
        aria-hidden
        className={cn(SHARED, "pointer-events-none absolute inset-0 overflow-hidden")}
      >
        {highlightJs(code).map((token, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: tokens are positional and re-made on every keystroke
          <span key={index} className={COLOURS[token.kind]}>
            {token.text}
          </span>
        ))}
        {"\n"}
      </pre>
      <textarea
        id={id}
        name={name}
        value={code}
        disabled={disabled}
        spellCheck={false}
        onChange={(event) => {
          setCode(event.target.value);
          onChange?.(event.target.value);
        }}
        onScroll={(event) => {
          if (backdrop.current) backdrop.current.scrollTop = event.currentTarget.scrollTop;
        }}
        onKeyDown={(event) => {
          // Tab indents instead of leaving the editor; Escape then Tab still moves focus on.
          if (event.key !== "Tab" || event.shiftKey) return;
          event.preventDefault();
          const target = event.currentTarget;
          const { selectionStart, selectionEnd } = target;
          const next = `${code.slice(0, selectionStart)}  ${code.slice(selectionEnd)}`;
          setCode(next);
          onChange?.(next);
          requestAnimationFrame(() => target.setSelectionRange(selectionStart + 2, selectionStart + 2));
        }}
        className={cn(
          SHARED,
          "relative min-h-64 w-full resize-y bg-transparent text-transparent caret-foreground outline-none",
        )}
      />
    </div>
  );
}
