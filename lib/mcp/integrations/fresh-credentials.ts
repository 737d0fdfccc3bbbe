import { ValidationError } from "@/lib/errors";
import type { McpIntegration } from "../repository";
import type { McpAuthType } from "../types";
import type { ParsedIntegrationUpdate } from "./integration-input";

/** True when an edit points the integration at another scheme, host or port than before. */
export function originChanged(before: string | null, after: string | undefined): boolean {
  if (!after || !before) return false;
  try {
    return new URL(before).origin !== new URL(after).origin;
  } catch {
    return true;
  }
}

/**
 * Stored secrets belong to the server they were entered for. When an edit moves the integration to another
 * origin, keeping them would send the saved token, headers or client secret to whatever server the new URL
 * names, so every stored secret the integration would still use must be entered again in the same edit. The
 * edit is refused (rather than the secrets silently cleared) so the admin learns at once which fields to fill,
 * instead of finding an integration that fails with 401s later; a header can also be left out to remove it.
 */
export function requireFreshCredentials(
  row: McpIntegration,
  input: ParsedIntegrationUpdate,
  authType: McpAuthType,
  origin: string,
) {
  const why = `The URL now points to another server (${origin}), and saved secrets are not sent to a new server.`;
  const stored = row.authType === authType ? row.credentialsEncrypted : {};
  if (authType === "bearer" && stored.token && !input.token) {
    throw new ValidationError(`Enter the bearer token again. ${why}`, {
      token: ["Enter the token again for the new server."],
    });
  }
  if (authType === "headers") {
    const storedNames = Object.keys(stored);
    const kept = input.headers ? storedNames.filter((name) => input.headers?.[name] === "") : storedNames;
    if (kept.length > 0) {
      throw new ValidationError(`Enter the values of ${kept.join(", ")} again, or remove them. ${why}`, {
        headers: [`Enter the values of ${kept.join(", ")} again for the new server, or remove them.`],
      });
    }
  }
  if (authType === "oauth" && stored.clientSecret && !input.oauthClientSecret) {
    const clientId = input.oauthClientId !== undefined ? input.oauthClientId : row.oauth?.clientId;
    if (clientId) {
      throw new ValidationError(`Enter the client secret again. ${why}`, {
        oauthClientSecret: ["Enter the client secret again for the new server."],
      });
    }
  }
}
