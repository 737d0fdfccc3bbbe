import type { ToolRunResult } from "@/lib/tools/integration-tool-run";
import type { PastRun } from "./run-history";

export type RunStatus = PastRun["status"];

/** How a run ended, in the words of the dashboard: refused before the server, failed by it, or answered. */
export function statusOf(result: ToolRunResult, refused: boolean): RunStatus {
  if (refused) return "refused";
  if (result.upstreamError) return "failed";
  return result.isError ? "tool-error" : "succeeded";
}

const labels: Record<RunStatus, string> = {
  succeeded: "Succeeded",
  "tool-error": "Tool error",
  refused: "Refused before the server",
  failed: "Server error",
};

const tones: Record<RunStatus, string> = {
  succeeded: "border-success text-success",
  "tool-error": "border-warning-text text-warning-text",
  refused: "border-muted-foreground text-muted-foreground",
  failed: "border-destructive text-destructive",
};

/** A byte count as people read it. */
export function sizeOf(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** A run's status, latency and size on one line. */
export function RunSummary({
  status,
  latencyMs,
  bytes,
}: {
  status: RunStatus;
  latencyMs: number;
  bytes: number;
}) {
  return (
    <p className="flex flex-wrap items-center gap-2 text-sm" data-testid="run-summary">
      <span className={`rounded-full border px-2 py-0.5 text-xs font-medium ${tones[status]}`}>
        {labels[status]}
      </span>
      <span className="tabular-nums text-muted-foreground">{latencyMs} ms</span>
      <span className="tabular-nums text-muted-foreground">{sizeOf(bytes)}</span>
    </p>
  );
}

/** The call as JSON-RPC: the `tools/call` request the server was sent and the result it answered. */
export function RawExchange({
  tool,
  args,
  result,
}: {
  tool: string;
  args: Record<string, unknown>;
  result: ToolRunResult;
}) {
  const { fields: _fields, errorMessage: _message, upstreamError, ...answered } = result;
  const request = { jsonrpc: "2.0", method: "tools/call", params: { name: tool, arguments: args } };
  const response = upstreamError
    ? { jsonrpc: "2.0", error: upstreamError }
    : { jsonrpc: "2.0", result: answered };
  return (
    <details className="rounded-md border p-3 text-sm" data-testid="raw-exchange">
      <summary className="cursor-pointer font-medium">JSON-RPC request and response</summary>
      <p className="mt-2 text-xs text-muted-foreground">
        As exchanged with the server; the message ids are the connection&apos;s own.
      </p>
      <h3 className="mt-2 text-xs font-medium">Request</h3>
      <pre className="mt-1 max-h-64 overflow-auto rounded bg-muted p-2 text-xs" data-testid="raw-request">
        {JSON.stringify(request, null, 2)}
      </pre>
      <h3 className="mt-2 text-xs font-medium">Response</h3>
      <pre className="mt-1 max-h-64 overflow-auto rounded bg-muted p-2 text-xs" data-testid="raw-response">
        {JSON.stringify(response, null, 2)}
      </pre>
    </details>
  );
}
