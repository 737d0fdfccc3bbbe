"use client";

import { ArrowLeft, Loader2, PlugZap } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useActionState, useCallback, useEffect, useState, useTransition } from "react";
import {
  deleteIntegrationAction,
  setEnabledAction,
  updateIntegrationAction,
} from "@/app/(app)/integrations/actions";
import { ActionForm } from "@/components/forms/action-form";
import type { FormState } from "@/components/forms/form-state";
import { SubmitButton } from "@/components/forms/submit-button";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardDescription, CardTitle } from "@/components/ui/card";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { postJson } from "@/components/ui/post-json";
import { RunningFor } from "@/components/ui/running-for";
import { useCancellable } from "@/components/ui/use-cancellable";
import type { IntegrationView } from "@/lib/mcp/integrations/integration-view";
import type { ConnectionTestResult } from "@/lib/mcp/integrations/test-connection";
import type { PresetCredential } from "@/lib/mcp/presets";
import { plural } from "@/lib/plural";
import { CustomServerFields } from "./custom-server-fields";
import { FeatureList } from "./feature-list";
import { IntegrationStateLine } from "./integration-state";
import { OAuthConnection, type OAuthOutcome } from "./oauth-connection";
import { StatusBadge } from "./status-badge";
import { ToolRunner } from "./tool-runner";

// How often a page of a failing integration looks again at its state.
const STATE_REFRESH_MS = 5000;

export function IntegrationDetail({
  integration,
  canManage,
  presetCredentials,
  testOnLoad,
  oauthOutcome,
  viewerId,
}: {
  integration: IntegrationView;
  /** Who is looking: the tool runner keeps each person's runs apart. */
  viewerId: string;
  canManage: boolean;
  presetCredentials: PresetCredential[];
  testOnLoad: boolean;
  oauthOutcome: OAuthOutcome;
}) {
  const router = useRouter();
  const [test, setTest] = useState<ConnectionTestResult | "cancelled" | null>(null);
  const testing = useCancellable();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string>();

  const { start } = testing;
  const runTest = useCallback(async () => {
    setTest(null);
    const outcome = await start((signal) =>
      postJson(`/api/integrations/${integration.id}/test`, {}, signal).catch((error: unknown) => {
        if (signal.aborted) throw error;
        return { ok: false as const, error: "Could not reach the app. Check your connection and try again." };
      }),
    );
    if (outcome === "cancelled") return setTest("cancelled");
    setTest(
      outcome.ok ? (outcome.body as ConnectionTestResult) : { ok: false, latencyMs: 0, error: outcome.error },
    );
    router.refresh();
  }, [integration.id, router, start]);

  // A failing server is tried again by itself: the page follows, so it shows the recovery when it comes.
  const waiting = integration.enabled && ["failing", "recovering"].includes(integration.state?.state ?? "");
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => router.refresh(), STATE_REFRESH_MS);
    return () => clearInterval(timer);
  }, [waiting, router]);

  // A new integration is tested straight away, so the admin sees at once whether it works; one that first needs
  // an OAuth connection would only fail.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, on arrival
  useEffect(() => {
    if (testOnLoad && integration.enabled && integration.oauth?.connection.status !== "not_connected")
      void runTest();
  }, []);

  const capabilities =
    test !== "cancelled" && test?.ok
      ? test.capabilities
      : integration.discovered
        ? {
            tools: integration.discovered.tools,
            resources: integration.discovered.resources,
            prompts: integration.discovered.prompts,
          }
        : null;

  return (
    <div className="grid gap-6">
      <Link
        href="/integrations"
        className="inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground"
      >
        <ArrowLeft className="h-4 w-4" aria-hidden /> Integrations
      </Link>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h1 className="flex flex-wrap items-center gap-3 text-2xl font-semibold">
            {integration.name} <StatusBadge integration={integration} />
          </h1>
          <p className="mt-1 truncate text-sm text-muted-foreground">
            {integration.transport === "stdio" ? integration.command : integration.url} ·{" "}
            {integration.transport} · tools are named <code>{integration.slug}_…</code>
          </p>
          {integration.enabled && integration.state ? (
            <IntegrationStateLine state={integration.state} className="mt-1 text-sm" />
          ) : null}
        </div>
        <div className="flex flex-wrap gap-2">
          <Button
            variant="secondary"
            onClick={() => void runTest()}
            disabled={testing.running || !integration.enabled}
          >
            {testing.running ? (
              <Loader2 className="h-4 w-4 animate-spin" aria-hidden />
            ) : (
              <PlugZap className="h-4 w-4" aria-hidden />
            )}
            {testing.running ? "Testing…" : "Test connection"}
          </Button>
          <RunningFor run={testing} testId="test-elapsed" />
          {canManage ? (
            <>
              <Button
                variant="secondary"
                disabled={pending}
                onClick={() =>
                  startTransition(async () => {
                    const enabling = !integration.enabled;
                    const outcome = await setEnabledAction(integration.id, enabling);
                    setError(outcome.error);
                    // Enabled again: tested at once, so the page says whether it works now.
                    if (
                      enabling &&
                      !outcome.error &&
                      integration.oauth?.connection.status !== "not_connected"
                    )
                      void runTest();
                  })
                }
              >
                {integration.enabled ? "Disable" : "Enable"}
              </Button>
              <ConfirmButton
                title={`Delete ${integration.name}?`}
                description="Its tools disappear from chat, the REST API and the MCP endpoint at once. Stored credentials, and any data its bundled server kept, are deleted."
                confirmLabel="Delete"
                disabled={pending}
                onConfirm={() =>
                  startTransition(async () => {
                    setError((await deleteIntegrationAction(integration.id)).error);
                  })
                }
              >
                Delete
              </ConfirmButton>
            </>
          ) : null}
        </div>
      </div>

      {error ? <Alert>{error}</Alert> : null}
      {integration.oauth ? (
        <OAuthConnection
          integrationId={integration.id}
          name={integration.name}
          oauth={integration.oauth}
          canManage={canManage}
          outcome={oauthOutcome}
        />
      ) : null}
      {!integration.enabled ? (
        <Alert tone="info">This integration is disabled: its tools are not offered anywhere.</Alert>
      ) : null}
      {test === "cancelled" ? (
        <Alert tone="info">
          <span data-testid="test-result">The test was cancelled.</span>
        </Alert>
      ) : test ? (
        test.ok ? (
          <Alert tone="success">
            <span data-testid="test-result">
              Connected in {test.latencyMs} ms: {plural(test.capabilities.tools.length, "tool")},{" "}
              {plural(test.capabilities.resources.length, "resource")},{" "}
              {plural(test.capabilities.prompts.length, "prompt")}.
            </span>
          </Alert>
        ) : (
          <Alert>
            <span data-testid="test-result">Connection failed: {test.error}</span>
          </Alert>
        )
      ) : integration.status === "failing" && integration.lastError ? (
        <Alert>
          <span data-testid="last-error">Last check failed: {integration.lastError}</span>
        </Alert>
      ) : null}

      {capabilities && integration.enabled ? (
        <ToolRunner integrationId={integration.id} viewerId={viewerId} tools={capabilities.tools} />
      ) : null}
      {capabilities ? <FeatureList integrationId={integration.id} features={capabilities} /> : null}

      {canManage ? (
        <EditIntegration
          integration={integration}
          presetCredentials={presetCredentials}
          onSaved={() => {
            if (integration.enabled) void runTest();
          }}
        />
      ) : null}
    </div>
  );
}

function EditIntegration({
  integration,
  presetCredentials,
  onSaved,
}: {
  integration: IntegrationView;
  presetCredentials: PresetCredential[];
  /** After a save: a corrected credential or address is tested at once. */
  onSaved: () => void;
}) {
  const [state, action] = useActionState<FormState, FormData>(
    updateIntegrationAction.bind(null, integration.id),
    {},
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per answer of the action
  useEffect(() => {
    if (state.success) onSaved();
  }, [state]);
  const custom = !integration.presetKey && integration.transport !== "stdio";
  return (
    <Card className="grid max-w-2xl gap-4">
      <div>
        <CardTitle>Settings</CardTitle>
        <CardDescription>Changes apply to the next call; open sessions are closed.</CardDescription>
      </div>
      <ActionForm action={action} state={state} className="grid gap-4" noValidate>
        {/* A refusal of one field is said beside it, once. */}
        {state.error && !state.fields ? <Alert>{state.error}</Alert> : null}
        {state.success ? <Alert tone="success">{state.success}</Alert> : null}
        {custom ? (
          <CustomServerFields state={state} allowStdio={false} initial={integration} />
        ) : (
          <Field id="name" label="Name" error={state.fields?.name?.[0]}>
            <Input id="name" name="name" defaultValue={integration.name} />
          </Field>
        )}
        {presetCredentials.map((credential) => (
          <Field
            key={credential.key}
            id={`credential-${credential.key}`}
            label={credential.label}
            hint={
              integration.credentialKeys.includes(credential.key) ? "Set. Leave blank to keep it." : undefined
            }
          >
            <Input
              id={`credential-${credential.key}`}
              name={`credential:${credential.key}`}
              type="password"
              autoComplete="off"
            />
          </Field>
        ))}
        <Field id="timeoutSeconds" label="Timeout (seconds)" error={state.fields?.timeoutMs?.[0]}>
          <Input
            id="timeoutSeconds"
            name="timeoutSeconds"
            type="number"
            min={1}
            max={300}
            defaultValue={integration.timeoutMs / 1000}
          />
        </Field>
        <SubmitButton pendingText="Saving…">Save changes</SubmitButton>
      </ActionForm>
    </Card>
  );
}
