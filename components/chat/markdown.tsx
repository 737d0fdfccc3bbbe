import type { ComponentProps } from "react";
import ReactMarkdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";

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
  pre: (props) => <pre className="my-2 overflow-x-auto rounded bg-muted p-3 text-xs" {...own(props)} />,
  code: ({ className, ...props }: ComponentProps<"code"> & { node?: unknown }) => (
    <code className={className ?? "rounded bg-muted px-1 py-0.5 text-[0.85em]"} {...own(props)} />
  ),
  img: ({ alt }) => <span className="text-muted-foreground">[image: {alt || "no description"}]</span>,
};

/** The model's answer as Markdown (GitHub flavour: tables, task lists, strikethrough). */
export function Markdown({ text }: { text: string }) {
  return (
    <div className="text-sm" data-testid="markdown">
      <ReactMarkdown remarkPlugins={[remarkGfm]} components={components}>
        {text}
      </ReactMarkdown>
    </div>
  );
}
