import { getEnv } from "@/lib/env";

/**
 * The app's address for links made outside a request (the CLI has no browser to ask): AUTH_URL, as the app reads
 * it for OAuth redirects, else the local port the app serves on.
 */
export function operatorOrigin(): string {
  const configured = process.env.AUTH_URL;
  return configured ? new URL(configured).origin : `http://localhost:${getEnv().PORT}`;
}
