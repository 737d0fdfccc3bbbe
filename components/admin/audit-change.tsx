import { readableAuditValue } from "@/lib/audit/readable-value";

/** How long one value may be before it is cut in the summary; the full value is one click away. */
const VALUE_CHARS = 60;
const SHOWN_KEYS = 3;

const cut = (text: string) => (text.length > VALUE_CHARS ? `${text.slice(0, VALUE_CHARS)}…` : text);

type Values = Record<string, unknown> | null;

/**
 * The fields an audit event changed, in words: created and deleted ones show one side, changed ones both, and a
 * secret that changed says so without a value.
 */
function changedFields(before: Values, after: Values) {
  const keys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  const side = (values: Values, key: string) =>
    values && Object.hasOwn(values, key) ? readableAuditValue(key, values[key]) : undefined;
  return keys
    .map((key) => {
      const to = side(after, key);
      // A secret is recorded as "changed" on the after side only: its old value was never kept.
      const from = to === "changed" ? undefined : side(before, key);
      return { key, from, to };
    })
    .filter(({ from, to }) => from !== to);
}

function Field({ field, whole }: { field: ReturnType<typeof changedFields>[number]; whole: boolean }) {
  const side = (text: string) => (whole ? text : cut(text));
  return (
    <li className="[overflow-wrap:anywhere]">
      <span className="font-medium text-foreground">{field.key}</span>:{" "}
      {field.from !== undefined && field.to !== undefined ? (
        <>
          <span className="sr-only">was </span>
          <del className="decoration-1">{side(field.from)}</del> <span className="sr-only">now </span>→{" "}
          <ins className="no-underline">{side(field.to)}</ins>
        </>
      ) : (
        side(field.to ?? field.from ?? "")
      )}
    </li>
  );
}

/** An audit event's change as a compact list of fields that wraps; long values and many fields open on demand. */
export function AuditChange({ before, after }: { before: Values; after: Values }) {
  const fields = changedFields(before, after);
  if (fields.length === 0) return <span className="text-muted-foreground">—</span>;
  const long =
    fields.length > SHOWN_KEYS || fields.some((f) => `${f.from ?? ""}${f.to ?? ""}`.length > VALUE_CHARS);
  const summary = (
    <ul className="grid gap-0.5">
      {fields.slice(0, SHOWN_KEYS).map((field) => (
        <Field key={field.key} field={field} whole={false} />
      ))}
    </ul>
  );
  if (!long) return <div className="min-w-48 text-xs text-muted-foreground">{summary}</div>;
  return (
    <details className="group min-w-48 text-xs text-muted-foreground">
      <summary className="cursor-pointer list-none">
        <span className="group-open:hidden">{summary}</span>
        <span className="text-primary underline">
          <span className="group-open:hidden">Show more</span>
          <span className="hidden group-open:inline">Show less</span>
        </span>
      </summary>
      <ul className="grid gap-0.5">
        {fields.map((field) => (
          <Field key={field.key} field={field} whole />
        ))}
      </ul>
    </details>
  );
}
