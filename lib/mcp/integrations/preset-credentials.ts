import { ValidationError } from "@/lib/errors";
import type { Preset } from "../presets";
import type { McpAuthType } from "../types";

/** The credentials a catalog entry asks for, trimmed, and the kind of authentication they make; a field error for each missing one. */
export function presetCredentials(entry: Preset, given: Record<string, string>) {
  const missing = entry.credentials.filter((credential) => !given[credential.key]?.trim());
  if (missing.length > 0) {
    const fields = Object.fromEntries(
      missing.map((c) => [`credentials.${c.key}`, [`Enter the ${c.label}.`]]),
    );
    throw new ValidationError(`${entry.name} needs: ${missing.map((c) => c.label).join(", ")}.`, fields);
  }
  const bearer = entry.credentials.find((c) => c.kind === "bearer");
  const values = Object.fromEntries(entry.credentials.map((c) => [c.key, (given[c.key] ?? "").trim()]));
  return {
    authType: (bearer ? "bearer" : entry.credentials.length ? "headers" : "none") as McpAuthType,
    values,
  };
}
