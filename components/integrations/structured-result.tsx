import { CheckCircle2, XCircle } from "lucide-react";
import { LongText } from "@/components/ui/long-text";
import { breaksOutputSchema, type ToolResult } from "@/lib/tools/types";

/**
 * The structured result of a tool that declares an output schema, as checked against it: the JSON marked valid
 * (the catalog lets only a valid one through), or marked as breaking it (the check's error shows with the result).
 * A failure of the tool itself has nothing to check, so shows nothing here.
 */
export function StructuredResult({ result }: { result: ToolResult }) {
  const broken = breaksOutputSchema(result);
  if (result.isError && !broken) return null;
  return (
    <section aria-label="Structured result" className="grid gap-2" data-testid="structured-result">
      <h3 className="flex flex-wrap items-center gap-2 text-sm font-medium">
        Structured result
        {broken ? (
          <span
            className="inline-flex items-center gap-1 text-xs text-destructive"
            data-testid="structured-check"
          >
            <XCircle className="h-3.5 w-3.5" aria-hidden /> Does not match the output schema
          </span>
        ) : (
          <span
            className="inline-flex items-center gap-1 text-xs text-success"
            data-testid="structured-check"
          >
            <CheckCircle2 className="h-3.5 w-3.5" aria-hidden /> Valid against the output schema
          </span>
        )}
      </h3>
      {broken ? null : (
        <LongText text={JSON.stringify(result.structuredContent, null, 2)} className="font-mono text-xs" />
      )}
    </section>
  );
}
