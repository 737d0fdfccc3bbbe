"use client";

import { KeyRound, Loader2 } from "lucide-react";
import { useState, useTransition } from "react";
import { disconnectOAuthAction, startOAuthAction } from "@/app/(app)/integrations/oauth-actions";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardDescription, CardTitle } from "@/components/ui/card";
import { ConfirmButton } from "@/components/ui/confirm-button";
import type { OAuthConnectionView, OAuthIntegrationView } from "@/lib/mcp/oauth/oauth-view";

const statusStyles = {
  connected: { label: "Connected", className: "border-success/40 bg-success/10 text-success" },
  needs_reconnect: {
    label: "Needs reconnecting",
    className: "border-destructive/40 bg-destructive/10 text-destructive",
  },
  not_connected: { label: "Not connected", className: "text-muted-foreground" },
} as const;

export function OAuthStatusBadge({ status }: { status: OAuthConnectionView["status"] }) {
  const style = statusStyles[status];
  return (
    <Badge className={style.className}>
      <span data-testid="oauth-status">{style.label}</span>
    </Badge>
  );
}

/** What the page was sent back with from the provider; fixed texts, so a link cannot make the page say anything. */
export type OAuthOutcome = { result: string; reason?: string } | null;

function outcomeMessage(
  outcome: OAuthOutcome,
  name: string,
): { tone: "success" | "error"; text: string } | null {
  switch (outcome?.result) {
    case "connected":
      return { tone: "success", text: `Connected to ${name}. Its tools are listed below.` };
    case "denied":
      return {
        tone: "error",
        text: `${name} did not grant access${outcome.reason ? ` (${outcome.reason})` : ""}. Nothing was changed.`,
      };
    case "expired":
      return { tone: "error", text: "That authorization expired or was already used. Connect again." };
    case "forbidden":
      return {
        tone: "error",
        text: "That authorization was started by someone else. Connect again yourself.",
      };
    case "failed":
      return {
        tone: "error",
        text: `Could not finish connecting to ${name}: its authorization server refused the code or did not answer. Try again.`,
      };
    default:
      return null;
  }
}

const date = (iso: string) => new Date(iso).toLocaleString();

/** The OAuth connection of an integration: its state, and Connect, Reconnect and Disconnect for whoever may. */
export function OAuthConnection({
  integrationId,
  name,
  oauth,
  canManage,
  outcome,
}: {
  integrationId: string;
  name: string;
  oauth: OAuthIntegrationView;
  canManage: boolean;
  outcome: OAuthOutcome;
}) {
  const personal = oauth.credentials === "user";
  const { connection } = oauth;
  const mayConnect = personal || canManage;
  const [redirecting, startRedirect] = useTransition();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string>();
  const message = outcomeMessage(outcome, name);

  const connect = () =>
    startRedirect(async () => {
      setError(undefined);
      const started = await startOAuthAction(integrationId, personal);
      if (started.authorizationUrl) window.location.assign(started.authorizationUrl);
      else setError(started.error ?? "Could not start connecting.");
    });

  return (
    <Card className="grid max-w-2xl gap-4" role="region" aria-labelledby="oauth-title">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <CardTitle id="oauth-title" className="inline-flex items-center gap-2">
            <KeyRound className="h-4 w-4" aria-hidden /> {personal ? "Your account" : "OAuth connection"}
          </CardTitle>
          <CardDescription>
            {personal
              ? `Each user connects their own ${name} account; your calls use yours.${
                  oauth.connectedUsers !== null && canManage
                    ? ` ${oauth.connectedUsers} ${oauth.connectedUsers === 1 ? "user has" : "users have"} connected.`
                    : ""
                }`
              : `Connected once for the organization; everyone's calls use this connection.`}
          </CardDescription>
        </div>
        <OAuthStatusBadge status={connection.status} />
      </div>
      {message ? <Alert tone={message.tone}>{message.text}</Alert> : null}
      {error ? <Alert>{error}</Alert> : null}
      {connection.status === "needs_reconnect" ? (
        <Alert>
          The connection stopped working{connection.lastError ? `: ${connection.lastError}` : ""}.{" "}
          {mayConnect ? "Reconnect to go on." : "Ask an owner or admin to reconnect it."}
        </Alert>
      ) : null}
      {connection.status === "not_connected" && !mayConnect ? (
        <p className="text-sm text-muted-foreground">Ask an owner or admin to connect it.</p>
      ) : null}
      {connection.connectedAt ? (
        <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-muted-foreground">Connected</dt>
          <dd>{date(connection.connectedAt)}</dd>
          {connection.expiresAt ? (
            <>
              <dt className="text-muted-foreground">Access token</dt>
              <dd>valid until {date(connection.expiresAt)}, renewed automatically</dd>
            </>
          ) : null}
          {oauth.scope ? (
            <>
              <dt className="text-muted-foreground">Scopes asked for</dt>
              <dd>{oauth.scope}</dd>
            </>
          ) : null}
        </dl>
      ) : null}
      {mayConnect ? (
        <div className="flex flex-wrap gap-2">
          <Button onClick={connect} disabled={redirecting || pending}>
            {redirecting ? <Loader2 className="h-4 w-4 animate-spin" aria-hidden /> : null}
            {redirecting
              ? "Opening the provider…"
              : connection.status === "not_connected"
                ? personal
                  ? "Connect my account"
                  : "Connect"
                : "Reconnect"}
          </Button>
          {connection.status !== "not_connected" ? (
            <ConfirmButton
              title={personal ? `Disconnect your ${name} account?` : `Disconnect ${name}?`}
              description={
                personal
                  ? "The provider is asked to revoke access, and your calls to its tools stop working until you connect again. Other users are not affected."
                  : "The provider is asked to revoke access and the stored tokens are deleted: its tools stop working for everyone until an admin connects it again."
              }
              confirmLabel="Disconnect"
              disabled={pending || redirecting}
              onConfirm={() =>
                startTransition(async () => {
                  setError((await disconnectOAuthAction(integrationId, personal)).error);
                })
              }
            >
              Disconnect
            </ConfirmButton>
          ) : null}
        </div>
      ) : null}
    </Card>
  );
}
