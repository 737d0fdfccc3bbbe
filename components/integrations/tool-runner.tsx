"use client";

import { Loader2, Play } from "lucide-react";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardDescription, CardTitle } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { Select } from "@/components/ui/input";
import { postJson } from "@/components/ui/post-json";
import { RunningFor } from "@/components/ui/running-for";
import { useCancellable } from "@/components/ui/use-cancellable";
import type { DiscoveredSnapshot } from "@/db/schema";
import type { ToolRunResult } from "@/lib/mcp/integrations-service";
import { type FormValues, formErrorsOf, SchemaForm, toArguments } from "./schema-form";
import { ToolResult } from "./tool-result";

/** One run through the runner's route; a refusal (bad arguments, a disabled integration) is an error result. */
async function runTool(
  integrationId: string,
  toolName: string,
  args: Record<string, unknown>,
  signal: AbortSignal,
): Promise<ToolRunResult> {
  const outcome = await postJson(`/api/integrations/${integrationId}/run`, { toolName, args }, signal);
  if (outcome.ok) return outcome.body as ToolRunResult;
  return {
    isError: true,
    content: [],
    errorMessage: outcome.error,
    ...(outcome.fields ? { fields: outcome.fields } : {}),
  };
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
          void run
            .start((signal) => runTool(integrationId, tool.name, args, signal))
            .then((outcome) => {
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
      </form>
      {cancelled ? <Alert tone="info">Cancelled: the server was told to stop the call.</Alert> : null}
      {result ? <ToolResult result={result} /> : null}
    </Card>
  );
}
