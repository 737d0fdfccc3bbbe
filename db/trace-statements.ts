import { PglitePreparedQuery } from "drizzle-orm/pglite";
import { PostgresJsPreparedQuery } from "drizzle-orm/postgres-js";
import { inSpan, SpanKind } from "@/lib/tracing/tracer";

type Run = (this: { queryString: string }, ...args: unknown[]) => Promise<unknown>;
const TRACED = Symbol.for("switchboard.tracedStatements");

/** The statement's operation ("SELECT", "INSERT", …): a span name of bounded variety. */
function operationOf(sql: string): string {
  return /^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase() ?? "SQL";
}

function traced(run: Run): Run {
  return function (this: { queryString: string }, ...args: unknown[]) {
    const text = this.queryString;
    // The statement's text only: drizzle sends values as parameters, and those stay out of traces.
    const attributes = { "db.system.name": "postgresql", "db.query.text": text };
    return inSpan(operationOf(text), { kind: SpanKind.CLIENT, attributes }, () => run.apply(this, args));
  };
}

/** Puts every statement drizzle sends, on either driver, in a span of its own (once tracing is on). */
export function traceStatements(): void {
  for (const prepared of [PostgresJsPreparedQuery, PglitePreparedQuery]) {
    const proto = prepared.prototype as unknown as Record<string | symbol, unknown>;
    if (proto[TRACED]) continue;
    proto[TRACED] = true;
    for (const method of ["execute", "all"]) proto[method] = traced(proto[method] as Run);
  }
}
