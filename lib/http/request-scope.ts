import { AsyncLocalStorage } from "node:async_hooks";

/** Fields the request log line should carry, gathered while the request runs (who called, for which org). */
const scope = new AsyncLocalStorage<Record<string, unknown>>();

export function runInRequestScope<T>(fields: Record<string, unknown>, fn: () => Promise<T>): Promise<T> {
  return scope.run(fields, fn);
}

export function addToRequestLog(fields: Record<string, unknown>) {
  const current = scope.getStore();
  if (current) Object.assign(current, fields);
}
