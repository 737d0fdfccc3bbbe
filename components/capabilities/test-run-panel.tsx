"use client";

import { Play } from "lucide-react";
import { useState, useTransition } from "react";
import { type CapabilityDraftInput, testRunCapabilityAction } from "@/app/(app)/capabilities/actions";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";

type Outcome = Awaited<ReturnType<typeof testRunCapabilityAction>>;

/** The messages of a refused run that its overall message does not already say (a draft's other bad fields). */
function moreMessages({ error, fields }: Outcome): string[] {
  const messages = Object.values(fields ?? {}).flat();
  return [...new Set(messages)].filter((message) => !error?.includes(message));
}

/**
 * Runs the capability as it stands in the editor (its name, schema and code, saved or not), with arguments checked
 * against that schema first, and shows the result, logs and duration.
 */
export function TestRunPanel({ draft }: { draft: () => CapabilityDraftInput }) {
  const [args, setArgs] = useState("{}");
  const [pending, startTransition] = useTransition();
  const [outcome, setOutcome] = useState<Outcome>();
  return (
    <section
      className="grid gap-3 rounded-md border p-4"
      aria-labelledby="test-run-title"
      data-testid="test-run"
    >
      <h2 id="test-run-title" className="font-medium">
        Test run
      </h2>
      <label htmlFor="test-args" className="text-sm">
        Arguments (JSON)
      </label>
      <textarea
        id="test-args"
        value={args}
        onChange={(event) => setArgs(event.target.value)}
        rows={3}
        spellCheck={false}
        className="rounded-md border bg-card p-2 font-mono text-xs outline-none focus-visible:ring-2 focus-visible:ring-ring"
      />
      <div>
        <Button
          variant="secondary"
          disabled={pending}
          onClick={() =>
            startTransition(async () => setOutcome(await testRunCapabilityAction(draft(), args)))
          }
        >
          <Play className="h-4 w-4" aria-hidden /> {pending ? "Running…" : "Run"}
        </Button>
      </div>
      {outcome?.error ? (
        <Alert>
          {outcome.error}
          {moreMessages(outcome).length ? (
            <ul className="mt-1 list-disc pl-5">
              {moreMessages(outcome).map((message) => (
                <li key={message}>{message}</li>
              ))}
            </ul>
          ) : null}
        </Alert>
      ) : null}
      {outcome?.run ? (
        <div className="grid gap-2 text-sm" data-testid="test-run-result">
          <p className="text-xs text-muted-foreground">
            {outcome.run.ok ? "Succeeded" : "Failed"} in {outcome.run.durationMs} ms · {outcome.run.toolCalls}{" "}
            tool call{outcome.run.toolCalls === 1 ? "" : "s"}
          </p>
          {outcome.run.ok ? (
            <pre className="overflow-x-auto rounded bg-muted p-3 text-xs">
              {JSON.stringify(outcome.run.value, null, 2)}
            </pre>
          ) : (
            <Alert>{outcome.run.error.message}</Alert>
          )}
          {outcome.run.logs.length ? (
            <>
              <p className="text-xs text-muted-foreground">Logs</p>
              <pre className="overflow-x-auto rounded bg-muted p-3 text-xs" data-testid="test-run-logs">
                {outcome.run.logs.join("\n")}
              </pre>
            </>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
