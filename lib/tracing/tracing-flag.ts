import { context, trace } from "@opentelemetry/api";

// Set by startTracing; on globalThis because route bundles and the instrumentation hook each load this file.
const ON = Symbol.for("switchboard.tracingOn");

export function markTracingOn(on = true): void {
  (globalThis as { [ON]?: boolean })[ON] = on;
}

/** Whether spans are recorded and exported (OTEL_EXPORTER_OTLP_ENDPOINT set): off, tracing costs nothing. */
export function tracingOn(): boolean {
  return (globalThis as { [ON]?: boolean })[ON] === true;
}

/** The ids that lead from a log line to its trace, when a span is active. */
export function activeTraceIds(): { traceId: string; spanId: string } | undefined {
  if (!tracingOn()) return undefined;
  const ids = trace.getSpan(context.active())?.spanContext();
  if (!ids || !trace.isSpanContextValid(ids)) return undefined;
  return { traceId: ids.traceId, spanId: ids.spanId };
}
