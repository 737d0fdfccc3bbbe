/** What a field's empty value means, where "none" would mislead: a key or client without a scope may use all. */
const EMPTY_MEANS: Record<string, string> = {
  scope: "every tool",
  toolScope: "every tool",
  integrationIds: "all",
  capabilityIds: "all",
  redirectHosts: "any host",
  expiresAt: "never",
};

/** An audit value in words rather than JSON: `on`, `none`, `a, b`, `name: x; role: admin`. */
export function readableAuditValue(key: string, value: unknown): string {
  if (value === null || value === undefined) return EMPTY_MEANS[key] ?? "none";
  if (typeof value === "boolean") return value ? "on" : "off";
  if (typeof value === "string") return value === "" ? "empty" : value;
  if (typeof value === "number" || typeof value === "bigint") return String(value);
  if (Array.isArray(value))
    return value.length === 0 ? "none" : value.map((item) => readableAuditValue(key, item)).join(", ");
  if (typeof value === "object") {
    const entries = Object.entries(value);
    if (entries.length === 0) return "none";
    return entries.map(([inner, item]) => `${inner}: ${readableAuditValue(inner, item)}`).join("; ");
  }
  return String(value);
}
