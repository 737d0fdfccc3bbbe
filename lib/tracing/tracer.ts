import {
  type Attributes,
  type Context,
  context,
  INVALID_SPAN_CONTEXT,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from "@opentelemetry/api";
import { AppError } from "@/lib/errors";
import { tracingOn } from "./tracing-flag";

const tracer = trace.getTracer("switchboard");
const NOT_RECORDING = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

export interface SpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
  /** Where the span hangs: the active context unless given (a request's incoming trace context, say). */
  parent?: Context;
}

/** What a failed span says about its error: an AppError's message is safe to show; anything else only its name. */
function statusMessageOf(error: unknown): string {
  if (error instanceof AppError) return error.message;
  return error instanceof Error ? error.name : "Error";
}

/**
 * Runs fn in a span that ends when it settles, marked as an error if it throws. With tracing off, fn runs as
 * it would without (its span records nothing).
 */
export function inSpan<T>(name: string, options: SpanOptions, fn: (span: Span) => Promise<T>): Promise<T> {
  if (!tracingOn()) return fn(NOT_RECORDING);
  const { parent, ...spanOptions } = options;
  return tracer.startActiveSpan(name, spanOptions, parent ?? context.active(), async (span) => {
    try {
      return await fn(span);
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: statusMessageOf(error) });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** The trace context a request arrived with (its `traceparent` header), or the active one if a span is open. */
export function incomingContext(headers: Headers): Context {
  if (trace.getSpan(context.active())) return context.active();
  return propagation.extract(ROOT_CONTEXT, headers, {
    get: (carrier, key) => carrier.get(key) ?? undefined,
    keys: (carrier) => [...carrier.keys()],
  });
}

/** The active trace context as W3C headers (`traceparent`, `tracestate`), to send with an outgoing request. */
export function outgoingTraceHeaders(): Record<string, string> {
  if (!tracingOn()) return {};
  const headers: Record<string, string> = {};
  propagation.inject(context.active(), headers);
  return headers;
}

export { markTracingOn, tracingOn } from "./tracing-flag";
export { SpanKind };
