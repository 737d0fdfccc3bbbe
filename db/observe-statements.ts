import { PglitePreparedQuery } from "drizzle-orm/pglite";
import { PostgresJsPreparedQuery } from "drizzle-orm/postgres-js";
import { metrics } from "@/lib/metrics/metrics";
import { inSpan, SpanKind, tracingOn } from "@/lib/tracing/tracer";

type Run = (this: { queryString: string }, ...args: unknown[]) => Promise<unknown>;
const OBSERVED = Symbol.for("switchboard.observedStatements");

/** The statement's operation ("SELECT", "INSERT", …): a span name of bounded variety. */
function operationOf(sql: string): string {
  return /^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase() ?? "SQL";
}

function observed(run: Run): Run {
  return function (this: { queryString: string }, ...args: unknown[]) {
    const inFlight = metrics()?.dbInFlight;
    inFlight?.inc();
    const done = () => inFlight?.dec();
    if (!tracingOn()) return run.apply(this, args).finally(done);
    const text = this.queryString;
    // The statement's text only: drizzle sends values as parameters, and those stay out of traces.
    const attributes = { "db.system.name": "postgresql", "db.query.text": text };
    return inSpan(operationOf(text), { kind: SpanKind.CLIENT, attributes }, () =>
      run.apply(this, args),
    ).finally(done);
  };
}

/**
 * Watches every statement drizzle sends, on either driver: a span for each (with tracing on) and the count of
 * those waiting for an answer (with metrics on). Installed once, when a database opens with either on.
 */
export function observeStatements(): void {
  for (const prepared of [PostgresJsPreparedQuery, PglitePreparedQuery]) {
    const proto = prepared.prototype as unknown as Record<string | symbol, unknown>;
    if (proto[OBSERVED]) continue;
    proto[OBSERVED] = true;
    for (const method of ["execute", "all"]) proto[method] = observed(proto[method] as Run);
  }
}
