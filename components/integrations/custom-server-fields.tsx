"use client";

import { useEffect, useState } from "react";
import type { FormState } from "@/components/forms/form-state";
import { Field } from "@/components/ui/field";
import { Input, Select } from "@/components/ui/input";

const textarea =
  "min-h-20 w-full rounded-md border bg-card px-3 py-2 font-mono text-sm outline-none focus-visible:ring-2 focus-visible:ring-ring";

/** Name, transport, URL (or command) and authentication of a custom server; shared by add and edit. */
export function CustomServerFields({
  state,
  allowStdio,
  initial,
}: {
  state: FormState;
  allowStdio: boolean;
  initial?: {
    name: string;
    transport: string;
    url: string | null;
    authType: string;
    credentialKeys: string[];
    oauth?: {
      credentials: string;
      scope: string | null;
      clientId: string | null;
      hasClientSecret: boolean;
    } | null;
  };
}) {
  const [transport, setTransport] = useState(
    state.values?.transport ?? initial?.transport ?? "streamable-http",
  );
  const [authType, setAuthType] = useState(state.values?.authType ?? initial?.authType ?? "none");
  const error = (name: string) => state.fields?.[name]?.[0];
  const editing = Boolean(initial);
  return (
    <>
      <Field id="name" label="Name" error={error("name")}>
        <Input id="name" name="name" required defaultValue={state.values?.name ?? initial?.name} />
      </Field>
      <Field id="transport" label="Transport">
        <TransportSelect
          defaultValue={transport}
          allowStdio={allowStdio && !editing}
          onChange={setTransport}
        />
      </Field>
      {transport === "stdio" ? (
        <>
          <Field id="command" label="Command" error={error("command")}>
            <Input id="command" name="command" defaultValue={state.values?.command} placeholder="npx" />
          </Field>
          <Field id="args" label="Arguments" hint="One per line.">
            <textarea id="args" name="args" className={textarea} />
          </Field>
        </>
      ) : (
        <>
          <Field id="url" label="URL" error={error("url")}>
            <Input
              id="url"
              name="url"
              type="url"
              required
              placeholder="https://mcp.example.com/mcp"
              defaultValue={state.values?.url ?? initial?.url ?? ""}
            />
          </Field>
          <Field id="authType" label="Authentication">
            <Select
              id="authType"
              name="authType"
              value={authType}
              onChange={(event) => setAuthType(event.target.value)}
            >
              <option value="none">None</option>
              <option value="bearer">Bearer token</option>
              <option value="headers">Custom headers</option>
              <option value="oauth">OAuth (sign in with the provider)</option>
            </Select>
          </Field>
          {authType === "oauth" ? <OAuthFields state={state} initial={initial?.oauth ?? null} /> : null}
          {authType === "bearer" ? (
            <Field
              id="token"
              label="Bearer token"
              hint={
                editing && initial?.credentialKeys.includes("token")
                  ? "A token is set. Leave blank to keep it."
                  : "Stored encrypted; never shown again."
              }
              error={error("token")}
            >
              <Input id="token" name="token" type="password" autoComplete="off" />
            </Field>
          ) : null}
          {authType === "headers" ? (
            <Field
              id="headers"
              label="Headers"
              hint={
                editing && initial?.credentialKeys.length
                  ? `Set: ${initial.credentialKeys.join(", ")}. Write "Name:" with no value to keep a stored value; leave a header out to remove it.`
                  : 'One "Name: value" per line. Values are stored encrypted.'
              }
              error={error("headers")}
            >
              <textarea
                id="headers"
                name="headers"
                className={textarea}
                placeholder="X-Api-Key: …"
                defaultValue={
                  editing ? initial?.credentialKeys.map((key) => `${key}:`).join("\n") : undefined
                }
              />
            </Field>
          ) : null}
        </>
      )}
    </>
  );
}

export function TransportSelect({
  defaultValue,
  allowStdio,
  onChange,
}: {
  defaultValue?: string;
  allowStdio: boolean;
  onChange?: (value: string) => void;
}) {
  return (
    <Select
      id="transport"
      name="transport"
      defaultValue={defaultValue ?? "streamable-http"}
      onChange={(event) => onChange?.(event.target.value)}
    >
      <option value="streamable-http">Streamable HTTP (falls back to SSE)</option>
      <option value="sse">SSE (older servers)</option>
      {allowStdio ? <option value="stdio">Command on this server (stdio)</option> : null}
    </Select>
  );
}

/** Who connects an OAuth server, the scopes, and a client registered beforehand for providers without DCR. */
function OAuthFields({
  state,
  initial,
}: {
  state: FormState;
  initial: {
    credentials: string;
    scope: string | null;
    clientId: string | null;
    hasClientSecret: boolean;
  } | null;
}) {
  const error = (name: string) => state.fields?.[name]?.[0];
  const [redirectUrl, setRedirectUrl] = useState("/api/oauth/callback");
  useEffect(() => setRedirectUrl(`${window.location.origin}/api/oauth/callback`), []);
  return (
    <>
      <Field
        id="oauthCredentials"
        label="Who connects"
        hint="Changing this later disconnects everyone."
        error={error("oauthCredentials")}
      >
        <Select
          id="oauthCredentials"
          name="oauthCredentials"
          defaultValue={state.values?.oauthCredentials ?? initial?.credentials ?? "organization"}
        >
          <option value="organization">Once for the organization (an admin connects)</option>
          <option value="user">Each user connects their own account</option>
        </Select>
      </Field>
      <Field
        id="oauthScope"
        label="Scopes (optional)"
        hint="Space-separated. Leave blank to ask for what the server names."
        error={error("oauthScope")}
      >
        <Input
          id="oauthScope"
          name="oauthScope"
          defaultValue={state.values?.oauthScope ?? initial?.scope ?? ""}
          placeholder="read write"
        />
      </Field>
      <details className="grid gap-3 rounded-md border p-3" open={Boolean(initial?.clientId)}>
        <summary className="cursor-pointer text-sm font-medium">Pre-registered client (optional)</summary>
        <p className="mt-2 text-sm text-muted-foreground">
          Most servers register Switchboard on their own. For a provider that does not, register an OAuth app
          there with the redirect URL <code className="break-all">{redirectUrl}</code> and enter its client
          here.
        </p>
        <Field id="oauthClientId" label="Client ID" error={error("oauthClientId")}>
          <Input
            id="oauthClientId"
            name="oauthClientId"
            autoComplete="off"
            defaultValue={state.values?.oauthClientId ?? initial?.clientId ?? ""}
          />
        </Field>
        <Field
          id="oauthClientSecret"
          label="Client secret"
          hint={
            initial?.hasClientSecret
              ? "A secret is set. Leave blank to keep it."
              : "For confidential clients; stored encrypted, never shown again."
          }
          error={error("oauthClientSecret")}
        >
          <Input id="oauthClientSecret" name="oauthClientSecret" type="password" autoComplete="off" />
        </Field>
      </details>
    </>
  );
}
