import { context, trace } from "@opentelemetry/api";
import { processWide } from "@/lib/process-wide.mjs";

// Set by startTracing; one per process, as route bundles and the instrumentation hook each load this file.
const flag = () => processWide("tracingOn", () => ({ on: false }));

export function markTracingOn(on = true): void {
  flag().on = on;
}

/** Whether spans are recorded and exported (OTEL_EXPORTER_OTLP_ENDPOINT set): off, tracing costs nothing. */
export function tracingOn(): boolean {
  return flag().on;
}

/** The ids that lead from a log line to its trace, when a span is active. */
export function activeTraceIds(): { traceId: string; spanId: string } | undefined {
  if (!tracingOn()) return undefined;
  const ids = trace.getSpan(context.active())?.spanContext();
  if (!ids || !trace.isSpanContextValid(ids)) return undefined;
  return { traceId: ids.traceId, spanId: ids.spanId };
}
