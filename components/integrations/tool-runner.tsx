"use client";

import { Loader2, Play, RotateCcw } from "lucide-react";
import { useState } from "react";
import { ToolQuestionForm } from "@/components/chat/tool-question";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardDescription, CardTitle } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { Select } from "@/components/ui/input";
import { ProgressReport } from "@/components/ui/progress-report";
import { RunningFor } from "@/components/ui/running-for";
import { useCancellable } from "@/components/ui/use-cancellable";
import type { DiscoveredSnapshot } from "@/lib/mcp/types";
import { type PastRun, useRunHistory } from "./run-history";
import {
  answerRun,
  type RunLog,
  type RunOutcome,
  type RunProgress,
  type RunQuestion,
  type RunSampling,
  runTool,
} from "./run-stream";
import { RawExchange, RunSummary, statusOf } from "./run-summary";
import { SamplingRequestForm } from "./sampling-request";
import { defaultsOf, type FormValues, formErrorsOf, SchemaForm, toArguments } from "./schema-form";
import { StructuredResult } from "./structured-result";
import { ToolAnnotations } from "./tool-annotations";
import { ToolResult } from "./tool-result";

/** A past run's arguments as the form shows them, to run it again. */
function valuesOf(args: Record<string, unknown>): FormValues {
  return Object.fromEntries(
    Object.entries(args).map(([name, value]) => [
      name,
      typeof value === "boolean" ? value : typeof value === "string" ? value : JSON.stringify(value),
    ]),
  );
}

/**
 * Pick a tool, fill the form generated from its input schema, run it, and see what came back: its status, latency
 * and size, the JSON-RPC exchange, and what the server said during the run (progress, log messages, questions and
 * sampling requests, answered here). The last runs are kept, to run again.
 */
export function ToolRunner({
  integrationId,
  viewerId,
  tools,
}: {
  integrationId: string;
  /** Whose run history this is. */
  viewerId: string;
  tools: DiscoveredSnapshot["tools"];
}) {
  const first = tools[0];
  const [name, setName] = useState(first?.name ?? "");
  const [values, setValues] = useState<FormValues>(first ? defaultsOf(first.inputSchema) : {});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [outcome, setOutcome] = useState<
    (RunOutcome & { tool: string; args: Record<string, unknown> }) | null
  >(null);
  const [cancelled, setCancelled] = useState(false);
  const [progress, setProgress] = useState<RunProgress | null>(null);
  const [logs, setLogs] = useState<RunLog[]>([]);
  const [question, setQuestion] = useState<RunQuestion | null>(null);
  const [sampling, setSampling] = useState<RunSampling | null>(null);
  const history = useRunHistory(viewerId, integrationId);
  const run = useCancellable();
  const tool = tools.find((t) => t.name === name);
  const outcomeTool = outcome ? tools.find((t) => t.name === outcome.tool) : undefined;
  if (tools.length === 0) return null;

  const choose = (next: string, nextValues?: FormValues) => {
    setName(next);
    const chosen = tools.find((t) => t.name === next);
    setValues(nextValues ?? (chosen ? defaultsOf(chosen.inputSchema) : {}));
    setErrors({});
    setOutcome(null);
  };

  const start = (toolName: string, args: Record<string, unknown>) => {
    const chosenTool = tools.find((t) => t.name === toolName);
    setCancelled(false);
    setOutcome(null);
    setProgress(null);
    setLogs([]);
    setQuestion(null);
    setSampling(null);
    void run
      .start((signal) =>
        runTool(integrationId, toolName, args, signal, {
          progress: setProgress,
          log: (log) => setLogs((previous) => [...previous, log]),
          question: setQuestion,
          sampling: setSampling,
        }),
      )
      .then((ended) => {
        setProgress(null);
        setQuestion(null);
        setSampling(null);
        if (ended === "cancelled") return setCancelled(true);
        if (chosenTool) setErrors(formErrorsOf(chosenTool.inputSchema, ended.result.fields));
        setOutcome({ ...ended, tool: toolName, args });
        history.add({
          at: new Date().toISOString(),
          tool: toolName,
          args,
          status: statusOf(ended.result, ended.refused),
          latencyMs: ended.latencyMs,
          bytes: ended.bytes,
        });
      })
      .catch(() =>
        setOutcome({
          tool: toolName,
          args,
          refused: true,
          latencyMs: 0,
          bytes: 0,
          result: { isError: true, content: [], errorMessage: "Could not reach the server. Try again." },
        }),
      );
  };

  const again = (past: PastRun) => {
    choose(past.tool, valuesOf(past.args));
    start(past.tool, past.args);
  };

  const answered = (id: string, clear: () => void) => async (answer: unknown) => {
    const failure = await answerRun(integrationId, id, answer);
    if (!failure) clear();
    return failure;
  };

  return (
    <Card className="grid gap-4" data-testid="tool-runner">
      <div>
        <CardTitle>Tool runner</CardTitle>
        <CardDescription>Run a tool of this integration as the chat and API would.</CardDescription>
      </div>
      <form
        className="grid gap-4"
        onSubmit={(event) => {
          event.preventDefault();
          if (!tool) return;
          // A quick check in the browser; the server checks the arguments against the schema again, and that counts.
          const { args, errors: bad } = toArguments(tool.inputSchema, values);
          setErrors(bad);
          if (Object.keys(bad).length > 0) return;
          start(tool.name, args);
        }}
      >
        <Field id="tool" label="Tool">
          <Select id="tool" value={name} onChange={(event) => choose(event.target.value)}>
            {tools.map((t) => (
              <option key={t.name} value={t.name}>
                {t.name}
              </option>
            ))}
          </Select>
        </Field>
        {tool ? <ToolAnnotations key={tool.name} tool={tool} /> : null}
        {tool?.description ? <p className="text-sm text-muted-foreground">{tool.description}</p> : null}
        {tool ? (
          <SchemaForm schema={tool.inputSchema} values={values} errors={errors} onChange={setValues} />
        ) : null}
        <div className="flex flex-wrap items-center gap-2">
          <Button type="submit" disabled={run.running}>
            {run.running ? (
              <Loader2 className="h-4 w-4 animate-spin" aria-hidden />
            ) : (
              <Play className="h-4 w-4" aria-hidden />
            )}
            {run.running ? "Running…" : "Run tool"}
          </Button>
          <RunningFor run={run} testId="run-elapsed" />
        </div>
        {run.running && progress ? <ProgressReport label={tool?.name ?? name} {...progress} /> : null}
      </form>
      {question ? (
        <ToolQuestionForm
          key={question.id}
          question={{ ...question, toolCallId: question.id }}
          onAnswer={answered(question.id, () => setQuestion(null))}
        />
      ) : null}
      {sampling ? (
        <SamplingRequestForm
          key={sampling.id}
          sampling={sampling}
          onAnswer={answered(sampling.id, () => setSampling(null))}
        />
      ) : null}
      {logs.length > 0 ? (
        <section aria-label="Server log" className="grid gap-1">
          <h3 className="text-sm font-medium">Server log</h3>
          <ol
            role="log"
            className="grid max-h-48 gap-0.5 overflow-auto font-mono text-xs"
            data-testid="run-log"
          >
            {logs.map((log, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: log lines have no identity of their own
              <li key={index} className="[overflow-wrap:anywhere]">
                <span className="font-medium">{log.level}</span>
                {log.logger ? ` ${log.logger}` : ""}:{" "}
                {typeof log.data === "string" ? log.data : JSON.stringify(log.data)}
              </li>
            ))}
          </ol>
        </section>
      ) : null}
      {cancelled ? <Alert tone="info">Cancelled: the server was told to stop the call.</Alert> : null}
      {outcome ? (
        <div className="grid gap-3">
          <RunSummary
            status={statusOf(outcome.result, outcome.refused)}
            latencyMs={outcome.latencyMs}
            bytes={outcome.bytes}
          />
          <ToolResult result={outcome.result} structuredApart={outcomeTool?.outputSchema !== undefined} />
          {outcomeTool?.outputSchema && !outcome.refused ? (
            <StructuredResult result={outcome.result} />
          ) : null}
          {outcome.refused ? null : (
            <RawExchange tool={outcome.tool} args={outcome.args} result={outcome.result} />
          )}
        </div>
      ) : null}
      {history.runs.length > 0 ? (
        <section aria-label="Recent runs" className="grid gap-2">
          <div className="flex items-center justify-between gap-2">
            <h3 className="text-sm font-medium">Recent runs</h3>
            <Button variant="ghost" size="sm" onClick={history.clear}>
              Clear
            </Button>
          </div>
          <ol className="grid gap-1 text-sm" data-testid="run-history">
            {history.runs.map((past) => (
              <li key={past.at} className="flex flex-wrap items-center gap-2 rounded-md border px-2 py-1">
                <code className="text-xs">{past.tool}</code>
                <RunSummary status={past.status} latencyMs={past.latencyMs} bytes={past.bytes} />
                <span className="min-w-0 flex-1 truncate font-mono text-xs text-muted-foreground">
                  {JSON.stringify(past.args)}
                </span>
                <Button
                  variant="secondary"
                  size="sm"
                  disabled={run.running}
                  onClick={() => again(past)}
                  aria-label={`Run ${past.tool} again with these arguments`}
                >
                  <RotateCcw className="h-3.5 w-3.5" aria-hidden /> Run again
                </Button>
              </li>
            ))}
          </ol>
        </section>
      ) : null}
    </Card>
  );
}
