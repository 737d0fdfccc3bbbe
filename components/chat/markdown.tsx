import { type ComponentProps, memo, type ReactElement } from "react";
import renderMarkdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";
import { CopyButton } from "@/components/ui/copy-button";

/** The text inside a syntax node, as the reader sees it: what a code block's copy button copies. */
function textOf(node: unknown): string {
  if (!node || typeof node !== "object") return "";
  if ("value" in node && typeof node.value === "string") return node.value;
  if ("children" in node && Array.isArray(node.children)) return node.children.map(textOf).join("");
  return "";
}

/** react-markdown passes its syntax node along; it is not an HTML attribute. */
function own<T extends { node?: unknown }>(props: T): Omit<T, "node"> {
  const { node: _node, ...rest } = props;
  return rest;
}

// Raw HTML in the model's text is never rendered (react-markdown escapes it); links open in a new tab.
const components: Components = {
  h1: (props) => <h3 className="mt-3 text-base font-semibold" {...own(props)} />,
  h2: (props) => <h3 className="mt-3 text-base font-semibold" {...own(props)} />,
  h3: (props) => <h4 className="mt-2 text-sm font-semibold" {...own(props)} />,
  p: (props) => <p className="my-1.5 leading-relaxed" {...own(props)} />,
  ul: (props) => <ul className="my-1.5 list-disc pl-5" {...own(props)} />,
  ol: (props) => <ol className="my-1.5 list-decimal pl-5" {...own(props)} />,
  li: (props) => <li className="my-0.5" {...own(props)} />,
  a: ({ href, ...props }) => (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      className="text-primary underline"
      {...own(props)}
    />
  ),
  blockquote: (props) => (
    <blockquote className="my-2 border-l-2 pl-3 text-muted-foreground" {...own(props)} />
  ),
  table: (props) => (
    <div className="my-2 overflow-x-auto">
      <table className="w-full border-collapse text-xs" {...own(props)} />
    </div>
  ),
  th: (props) => <th className="border px-2 py-1 text-left font-medium" {...own(props)} />,
  td: (props) => <td className="border px-2 py-1" {...own(props)} />,
  pre: (props) => (
    <div className="group relative my-2 min-w-0">
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a block that scrolls must take focus, or a keyboard cannot scroll it */}
      <pre tabIndex={0} className="overflow-x-auto rounded bg-muted p-3 pr-10 text-xs" {...own(props)} />
      <CopyButton
        compact
        label="Copy code"
        text={textOf(props.node)}
        className="absolute top-1.5 right-1.5 bg-muted"
      />
    </div>
  ),
  code: ({ className, ...props }: ComponentProps<"code"> & { node?: unknown }) => (
    <code className={className ?? "rounded bg-muted px-1 py-0.5 text-[0.85em]"} {...own(props)} />
  ),
  img: ({ alt }) => <span className="text-muted-foreground">[image: {alt || "no description"}]</span>,
};

const remarkPlugins = [remarkGfm];

// Parsing is most of what showing an answer costs (a processor is set up for each one, then the text parsed), so
// the rendered tree of a text is kept: switching back to a conversation, or streaming the next words of an answer,
// does not parse the texts already shown again. React elements are immutable, so one tree may be shown again.
const CACHED_TEXTS = 400;
const rendered = new Map<string, ReactElement>();

function markdownOf(text: string): ReactElement {
  // On the server the cache would be shared by every organization's requests: it is kept in the browser only.
  if (typeof window === "undefined") return renderMarkdown({ children: text, remarkPlugins, components });
  const known = rendered.get(text);
  if (known) {
    // Most recently used last, so the oldest is the one dropped.
    rendered.delete(text);
    rendered.set(text, known);
    return known;
  }
  // react-markdown's synchronous renderer is a pure function of its options (no hooks): called once, kept.
  const tree = renderMarkdown({ children: text, remarkPlugins, components });
  rendered.set(text, tree);
  if (rendered.size > CACHED_TEXTS) rendered.delete(rendered.keys().next().value ?? "");
  return tree;
}

/** The model's answer as Markdown (GitHub flavour: tables, task lists, strikethrough). */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return (
    <div className="min-w-0 text-sm [overflow-wrap:anywhere]" data-testid="markdown">
      {markdownOf(text)}
    </div>
  );
});
