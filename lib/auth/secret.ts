import { readOrCreateSecret } from "@/lib/data-dir";
import { getEnv } from "@/lib/env";

/** AUTH_SECRET, or a secret generated once and kept in the data folder so a fresh install needs no set-up. */
export function authSecret(): string {
  return getEnv().AUTH_SECRET ?? readOrCreateSecret("auth-secret");
}
