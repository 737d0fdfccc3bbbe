"use client";

import { Loader2, Play } from "lucide-react";
import { useState, useTransition } from "react";
import { runToolAction } from "@/app/(app)/integrations/actions";
import { Button } from "@/components/ui/button";
import { Card, CardDescription, CardTitle } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { Select } from "@/components/ui/input";
import type { DiscoveredSnapshot } from "@/db/schema";
import type { ToolRunResult } from "@/lib/mcp/integrations-service";
import { type FormValues, formErrorsOf, SchemaForm, toArguments } from "./schema-form";
import { ToolResult } from "./tool-result";

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
  const [running, startRun] = useTransition();
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
          startRun(async () => {
            const outcome = await runToolAction(integrationId, tool.name, args);
            setErrors(formErrorsOf(tool.inputSchema, outcome.fields));
            setResult(outcome);
          });
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
        <div>
          <Button type="submit" disabled={running}>
            {running ? (
              <Loader2 className="h-4 w-4 animate-spin" aria-hidden />
            ) : (
              <Play className="h-4 w-4" aria-hidden />
            )}
            {running ? "Running…" : "Run tool"}
          </Button>
        </div>
      </form>
      {result ? <ToolResult result={result} /> : null}
    </Card>
  );
}
