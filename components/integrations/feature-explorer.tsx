"use client";

import type {
  GetPromptResult,
  ReadResourceResult,
  ResourceTemplate,
} from "@modelcontextprotocol/sdk/types.js";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardTitle } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { postJson } from "@/components/ui/post-json";
import type { DiscoveredSnapshot } from "@/lib/mcp/types";
import { ResourceContents } from "./resource-contents";

/** The variables of a URI template (`{name}`, `{+path}`, `{?a,b}`), in order. */
export function templateVariables(template: string): string[] {
  return [...template.matchAll(/\{[+#./;?&]?([^}]+)\}/g)].flatMap((match) =>
    (match[1] ?? "").split(",").map((name) => name.replace(/\*$/, "").trim()),
  );
}

/** A URI template filled in: simple variables encoded, `{+x}` as is, `{?a,b}` as a query of the filled ones. */
export function fillTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{([+#./;?&]?)([^}]+)\}/g, (_, operator: string, names: string) => {
    const filled = names
      .split(",")
      .map((name) => name.replace(/\*$/, "").trim())
      .filter((name) => values[name]);
    if (operator === "?" || operator === "&") {
      const pairs = filled.map((name) => `${name}=${encodeURIComponent(values[name] ?? "")}`);
      return pairs.length ? `${operator}${pairs.join("&")}` : "";
    }
    const encode = operator === "+" || operator === "#" ? encodeURI : encodeURIComponent;
    return filled.map((name) => encode(values[name] ?? "")).join(",");
  });
}

type Read = { uri: string; result?: ReadResourceResult; error?: string };

function useRead(integrationId: string) {
  const [read, setRead] = useState<Read | null>(null);
  const [busy, setBusy] = useState(false);
  const preview = async (uri: string) => {
    setBusy(true);
    setRead({ uri });
    const outcome = await postJson(
      `/api/integrations/${integrationId}/resources/read`,
      { uri },
      new AbortController().signal,
    ).catch(() => ({ ok: false as const, error: "Could not reach the app. Try again." }));
    setRead(outcome.ok ? { uri, result: outcome.body as ReadResourceResult } : { uri, error: outcome.error });
    setBusy(false);
  };
  return { read, busy, preview };
}

/** Resources to preview, templates to fill in, and prompts to run with their arguments. */
export function FeatureExplorer({
  integrationId,
  features,
}: {
  integrationId: string;
  features: DiscoveredSnapshot;
}) {
  const { read, busy, preview } = useRead(integrationId);
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <Card className="grid content-start gap-3">
        <CardTitle>Resources ({features.resources.length})</CardTitle>
        <ul className="grid gap-1 text-sm" data-testid="resource-list">
          {features.resources.map((resource) => (
            <li key={resource.uri} className="flex min-w-0 items-center gap-2">
              <span className="min-w-0 flex-1 truncate">
                <code>{resource.uri}</code>
                {resource.mimeType ? (
                  <span className="text-muted-foreground"> · {resource.mimeType}</span>
                ) : null}
              </span>
              <Button
                variant="ghost"
                size="sm"
                disabled={busy}
                onClick={() => void preview(resource.uri)}
                aria-label={`Preview ${resource.name ?? resource.uri}`}
              >
                Preview
              </Button>
            </li>
          ))}
        </ul>
        <Templates integrationId={integrationId} onRead={preview} busy={busy} />
        {read ? (
          <section aria-label="Resource preview" aria-live="polite" className="grid gap-2">
            {read.error ? <Alert>{read.error}</Alert> : null}
            {read.result ? <ResourceContents result={read.result} /> : null}
            {!read.error && !read.result ? (
              <p className="text-sm text-muted-foreground">Reading {read.uri}…</p>
            ) : null}
          </section>
        ) : null}
      </Card>
      <Prompts integrationId={integrationId} prompts={features.prompts} />
    </div>
  );
}

/** The server's resource templates, loaded when asked for; one filled in reads the resource it names. */
function Templates({
  integrationId,
  onRead,
  busy,
}: {
  integrationId: string;
  onRead: (uri: string) => Promise<void>;
  busy: boolean;
}) {
  const [templates, setTemplates] = useState<ResourceTemplate[] | null>(null);
  const [error, setError] = useState<string>();
  const [chosen, setChosen] = useState<ResourceTemplate | null>(null);
  const [values, setValues] = useState<Record<string, string>>({});
  const load = async () => {
    setError(undefined);
    const response = await fetch(`/api/integrations/${integrationId}/resources/templates`).catch(() => null);
    const body = (await response?.json().catch(() => null)) as {
      templates?: ResourceTemplate[];
      error?: string;
    } | null;
    if (response?.ok && body?.templates) setTemplates(body.templates);
    else setError(body?.error ?? "The templates could not be listed. Try again.");
  };
  if (!templates)
    return (
      <div className="grid gap-2">
        <div>
          <Button variant="secondary" size="sm" onClick={() => void load()}>
            Show resource templates
          </Button>
        </div>
        {error ? <Alert>{error}</Alert> : null}
      </div>
    );
  return (
    <div className="grid gap-2">
      <h3 className="text-sm font-medium">Resource templates ({templates.length})</h3>
      <ul className="grid gap-1 text-sm" data-testid="template-list">
        {templates.map((template) => (
          <li key={template.uriTemplate} className="flex min-w-0 items-center gap-2">
            <code className="min-w-0 flex-1 truncate">{template.uriTemplate}</code>
            <Button
              variant="ghost"
              size="sm"
              onClick={() => {
                setChosen(template);
                setValues({});
              }}
              aria-label={`Fill in ${template.name}`}
            >
              Fill in
            </Button>
          </li>
        ))}
      </ul>
      {chosen ? (
        <form
          className="grid gap-2 rounded-md border p-3"
          aria-label={`Template ${chosen.name}`}
          onSubmit={(event) => {
            event.preventDefault();
            void onRead(fillTemplate(chosen.uriTemplate, values));
          }}
        >
          {templateVariables(chosen.uriTemplate).map((name) => (
            <Field key={name} id={`template-${name}`} label={name}>
              <Input
                id={`template-${name}`}
                value={values[name] ?? ""}
                onChange={(event) => setValues({ ...values, [name]: event.target.value })}
              />
            </Field>
          ))}
          <p className="text-xs text-muted-foreground [overflow-wrap:anywhere]">
            Reads <code>{fillTemplate(chosen.uriTemplate, values)}</code>
          </p>
          <div>
            <Button type="submit" size="sm" disabled={busy}>
              Read resource
            </Button>
          </div>
        </form>
      ) : null}
    </div>
  );
}

/** The server's prompts, each run with its arguments; the messages it answers are shown. */
function Prompts({
  integrationId,
  prompts,
}: {
  integrationId: string;
  prompts: DiscoveredSnapshot["prompts"];
}) {
  const [name, setName] = useState<string | null>(null);
  const [values, setValues] = useState<Record<string, string>>({});
  const [answer, setAnswer] = useState<{ result?: GetPromptResult; error?: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const prompt = prompts.find((candidate) => candidate.name === name);
  const run = async () => {
    if (!prompt) return;
    setBusy(true);
    setAnswer(null);
    const filled = Object.fromEntries(Object.entries(values).filter(([, value]) => value !== ""));
    const outcome = await postJson(
      `/api/integrations/${integrationId}/prompts/get`,
      { name: prompt.name, arguments: filled },
      new AbortController().signal,
    ).catch(() => ({ ok: false as const, error: "Could not reach the app. Try again." }));
    setAnswer(outcome.ok ? { result: outcome.body as GetPromptResult } : { error: outcome.error });
    setBusy(false);
  };
  return (
    <Card className="grid content-start gap-3">
      <CardTitle>Prompts ({prompts.length})</CardTitle>
      <ul className="grid gap-1 text-sm" data-testid="prompt-list">
        {prompts.map((candidate) => (
          <li key={candidate.name} className="flex items-center gap-2">
            <code className="min-w-0 flex-1 truncate">{candidate.name}</code>
            <Button
              variant="ghost"
              size="sm"
              onClick={() => {
                setName(candidate.name);
                setValues({});
                setAnswer(null);
              }}
              aria-label={`Open prompt ${candidate.name}`}
            >
              Open
            </Button>
          </li>
        ))}
      </ul>
      {prompt ? (
        <form
          className="grid gap-2 rounded-md border p-3"
          aria-label={`Prompt ${prompt.name}`}
          onSubmit={(event) => {
            event.preventDefault();
            void run();
          }}
        >
          {prompt.description ? <p className="text-sm text-muted-foreground">{prompt.description}</p> : null}
          {(prompt.arguments ?? []).map((argument) => (
            <Field
              key={argument.name}
              id={`prompt-${argument.name}`}
              label={`${argument.name}${argument.required ? " *" : ""}`}
              hint={argument.description}
            >
              <Input
                id={`prompt-${argument.name}`}
                value={values[argument.name] ?? ""}
                required={argument.required}
                onChange={(event) => setValues({ ...values, [argument.name]: event.target.value })}
              />
            </Field>
          ))}
          <div>
            <Button type="submit" size="sm" disabled={busy}>
              Get prompt
            </Button>
          </div>
        </form>
      ) : null}
      {answer?.error ? <Alert>{answer.error}</Alert> : null}
      {answer?.result ? (
        <ol className="grid gap-2 text-sm" data-testid="prompt-messages" aria-label="Prompt messages">
          {answer.result.messages.map((message, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a prompt's messages have no identity of their own
            <li key={index} className="rounded-md border p-2 [overflow-wrap:anywhere]">
              <span className="font-medium">{message.role}:</span>{" "}
              {message.content.type === "text" ? message.content.text : JSON.stringify(message.content)}
            </li>
          ))}
        </ol>
      ) : null}
    </Card>
  );
}
