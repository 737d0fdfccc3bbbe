"use client";

import { Loader2, Play } from "lucide-react";
import { useState } from "react";
import { z } from "zod";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardDescription, CardTitle } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { Select } from "@/components/ui/input";
import { ProgressReport } from "@/components/ui/progress-report";
import { RunningFor } from "@/components/ui/running-for";
import { useCancellable } from "@/components/ui/use-cancellable";
import type { DiscoveredSnapshot } from "@/lib/mcp/types";
import type { ToolRunResult } from "@/lib/tools/integration-tool-run";
import { type FormValues, formErrorsOf, SchemaForm, toArguments } from "./schema-form";
import { ToolResult } from "./tool-result";

const runLine = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("progress"),
    progress: z.number(),
    total: z.number().optional(),
    message: z.string().optional(),
  }),
  z.object({ type: z.literal("result"), result: z.unknown() }),
  z.object({
    type: z.literal("refusal"),
    body: z.object({
      error: z.string(),
      fields: z.record(z.string(), z.array(z.string())).optional(),
    }),
  }),
]);

type RunProgress = Extract<z.infer<typeof runLine>, { type: "progress" }>;

/**
 * One run through the runner's route, following the server's progress reports as they come; a refusal (bad
 * arguments, a disabled integration) is an error result.
 */
async function runTool(
  integrationId: string,
  toolName: string,
  args: Record<string, unknown>,
  signal: AbortSignal,
  onProgress: (progress: RunProgress) => void,
): Promise<ToolRunResult> {
  const response = await fetch(`/api/integrations/${integrationId}/run`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/x-ndjson" },
    body: JSON.stringify({ toolName, args }),
    signal,
  });
  const refused = (error: string, fields?: Record<string, string[]>): ToolRunResult => ({
    isError: true,
    content: [],
    errorMessage: error,
    ...(fields ? { fields } : {}),
  });
  if (!response.ok || !response.body) {
    const body: unknown = await response.json().catch(() => null);
    const refusal = runLine.safeParse({ type: "refusal", body });
    return refusal.success && refusal.data.type === "refusal"
      ? refused(refusal.data.body.error, refusal.data.body.fields)
      : refused(`The request failed (HTTP ${response.status}).`);
  }
  const lines = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let pending = "";
  for (;;) {
    const { value, done } = await lines.read();
    if (done) break;
    pending += value;
    const complete = pending.split("\n");
    pending = complete.pop() ?? "";
    for (const text of complete) {
      const line = runLine.safeParse(JSON.parse(text));
      if (!line.success) continue;
      if (line.data.type === "progress") onProgress(line.data);
      else if (line.data.type === "result") return line.data.result as ToolRunResult;
      else return refused(line.data.body.error, line.data.body.fields);
    }
  }
  return refused("The server stopped answering before the result. Try again.");
}

/** Pick a tool, fill the form generated from its input schema, run it, and see what came back. */
export function ToolRunner({
  integrationId,
  tools,
}: {
  integrationId: string;
  tools: DiscoveredSnapshot["tools"];
}) {
  const [name, setName] = useState(tools[0]?.name ?? "");
  const [values, setValues] = useState<FormValues>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [result, setResult] = useState<ToolRunResult | null>(null);
  const [cancelled, setCancelled] = useState(false);
  const [progress, setProgress] = useState<RunProgress | null>(null);
  const run = useCancellable();
  const tool = tools.find((t) => t.name === name);
  if (tools.length === 0) return null;
  return (
    <Card className="grid gap-4">
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
          setCancelled(false);
          setResult(null);
          setProgress(null);
          void run
            .start((signal) => runTool(integrationId, tool.name, args, signal, setProgress))
            .then((outcome) => {
              setProgress(null);
              if (outcome === "cancelled") return setCancelled(true);
              setErrors(formErrorsOf(tool.inputSchema, outcome.fields));
              setResult(outcome);
            })
            .catch(() =>
              setResult({
                isError: true,
                content: [],
                errorMessage: "Could not reach the server. Try again.",
              }),
            );
        }}
      >
        <Field id="tool" label="Tool">
          <Select
            id="tool"
            value={name}
            onChange={(event) => {
              setName(event.target.value);
              setValues({});
              setErrors({});
              setResult(null);
            }}
          >
            {tools.map((t) => (
              <option key={t.name} value={t.name}>
                {t.name}
              </option>
            ))}
          </Select>
        </Field>
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
      {cancelled ? <Alert tone="info">Cancelled: the server was told to stop the call.</Alert> : null}
      {result ? <ToolResult result={result} /> : null}
    </Card>
  );
}
