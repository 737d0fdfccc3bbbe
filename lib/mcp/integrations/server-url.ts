import { getEnv } from "@/lib/env";
import { ValidationError } from "@/lib/errors";
import { assertPublicLiteral, PrivateNetworkError } from "../client/network-guard";

/** Refuses a URL naming a private network address (unless private networks are allowed), as a field error. */
export function checkServerUrl(url: string) {
  if (getEnv().MCP_ALLOW_PRIVATE_NETWORKS) return;
  try {
    assertPublicLiteral(new URL(url));
  } catch (error) {
    if (error instanceof PrivateNetworkError)
      throw new ValidationError(error.message, { url: [error.message] });
    throw error;
  }
}
