"use client";

import { Loader2, Play } from "lucide-react";
import { useState } from "react";
import type { CapabilityDraftInput } from "@/app/(app)/capabilities/actions";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { LongText } from "@/components/ui/long-text";
import { postJson } from "@/components/ui/post-json";
import { RunningFor } from "@/components/ui/running-for";
import { useCancellable } from "@/components/ui/use-cancellable";
import type { TestRunResult } from "@/lib/tools/capability-test-run";

type Outcome = { run?: TestRunResult; error?: string; fields?: Record<string, string[]> };

/** One test run through its route; a refusal (bad arguments or draft) comes back as the error to show. */
async function testRun(draft: CapabilityDraftInput, argsText: string, signal: AbortSignal): Promise<Outcome> {
  const outcome = await postJson("/api/capabilities/test-run", { draft, argsText }, signal);
  return outcome.ok ? (outcome.body as Outcome) : { error: outcome.error, fields: outcome.fields };
}

/** The messages of a refused run that its overall message does not already say (a draft's other bad fields). */
function moreMessages({ error, fields }: Outcome): string[] {
  const messages = Object.values(fields ?? {}).flat();
  return [...new Set(messages)].filter((message) => !error?.includes(message));
}

/**
 * Runs the capability as it stands in the editor (its name, schemas and code, saved or not), with arguments checked
 * against its parameters schema first and the result against its output schema after, and shows the result, logs
 * and duration.
 */
export function TestRunPanel({ draft }: { draft: () => CapabilityDraftInput }) {
  const [args, setArgs] = useState("{}");
  const [outcome, setOutcome] = useState<Outcome>();
  const [cancelled, setCancelled] = useState(false);
  const run = useCancellable();
  return (
    <section
      className="grid content-start gap-3 self-start rounded-md border p-4"
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
      <div className="flex flex-wrap items-center gap-2">
        <Button
          variant="secondary"
          disabled={run.running}
          onClick={() => {
            // A new run starts clean: nothing of the last one stays on screen while it runs.
            setOutcome(undefined);
            setCancelled(false);
            void run
              .start((signal) => testRun(draft(), args, signal))
              .then((result) => (result === "cancelled" ? setCancelled(true) : setOutcome(result)))
              .catch(() => setOutcome({ error: "Could not reach the server. Try again." }));
          }}
        >
          {run.running ? (
            <Loader2 className="h-4 w-4 animate-spin" aria-hidden />
          ) : (
            <Play className="h-4 w-4" aria-hidden />
          )}
          {run.running ? "Running…" : "Run"}
        </Button>
        <RunningFor run={run} testId="test-run-elapsed" />
      </div>
      {cancelled ? <Alert tone="info">Cancelled: the run and every call it made were stopped.</Alert> : null}
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
            <LongText text={JSON.stringify(outcome.run.value, null, 2)} />
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
