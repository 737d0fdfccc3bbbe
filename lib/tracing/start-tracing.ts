import { context, propagation, trace } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import {
  defaultResource,
  detectResources,
  envDetector,
  resourceFromAttributes,
} from "@opentelemetry/resources";
import { BatchSpanProcessor, NodeTracerProvider, type SpanExporter } from "@opentelemetry/sdk-trace-node";
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from "@opentelemetry/semantic-conventions";
import packageJson from "@/package.json" with { type: "json" };
import { markTracingOn } from "./tracer";

/**
 * Registers the OpenTelemetry SDK for this process: spans batched to the OTLP/HTTP exporter (which reads the
 * standard OTEL_EXPORTER_OTLP_* settings), W3C trace context, and the service named by OTEL_SERVICE_NAME
 * ("switchboard" unless set) with OTEL_RESOURCE_ATTRIBUTES. Returns how to flush and stop.
 */
export function startTracing(exporter: SpanExporter = new OTLPTraceExporter()): NodeTracerProvider {
  const resource = defaultResource()
    .merge(
      resourceFromAttributes({
        [ATTR_SERVICE_NAME]: process.env.OTEL_SERVICE_NAME || "switchboard",
        [ATTR_SERVICE_VERSION]: packageJson.version,
      }),
    )
    .merge(detectResources({ detectors: [envDetector] }));
  const provider = new NodeTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(exporter)] });
  // The global provider, AsyncLocalStorage context and W3C propagators: Next.js's own spans join the same traces.
  provider.register();
  markTracingOn();
  // Spans still batched are sent on a clean stop.
  for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, () => void provider.forceFlush());
  return provider;
}

/** Sends what is left and unregisters the SDK: tracing is off again, as if never started (tests). */
export async function stopTracing(provider: NodeTracerProvider): Promise<void> {
  markTracingOn(false);
  await provider.shutdown();
  trace.disable();
  context.disable();
  propagation.disable();
}
