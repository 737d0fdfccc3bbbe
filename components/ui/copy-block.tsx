import { CopyButton } from "./copy-button";

/** A block of code with a button that copies it. */
export function CopyBlock({ text }: { text: string }) {
  return (
    <div className="relative">
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a block that scrolls must take focus, or a keyboard cannot scroll it */}
      <pre tabIndex={0} className="overflow-x-auto rounded bg-muted p-3 pr-24 text-xs">
        {text}
      </pre>
      <CopyButton text={text} className="absolute top-2 right-2" />
    </div>
  );
}
