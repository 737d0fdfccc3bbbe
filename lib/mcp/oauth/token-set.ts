import type { OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";

/** The tokens of one connection, as kept between calls. */
export interface OAuthTokenSet {
  accessToken: string;
  refreshToken?: string;
  /** Epoch milliseconds; absent when the server did not say. */
  expiresAt?: number;
  scope?: string;
}

// Refreshing a minute early keeps a call from starting with a token that expires on the way.
const EXPIRY_LEEWAY_MS = 60_000;

export function isExpiring(tokens: OAuthTokenSet, now = Date.now()): boolean {
  return tokens.expiresAt !== undefined && tokens.expiresAt - now <= EXPIRY_LEEWAY_MS;
}

/** What a token response becomes; a refresh that returns no new refresh token keeps the previous one. */
export function tokenSetFrom(tokens: OAuthTokens, previous?: OAuthTokenSet, now = Date.now()): OAuthTokenSet {
  return {
    accessToken: tokens.access_token,
    refreshToken: tokens.refresh_token ?? previous?.refreshToken,
    expiresAt: typeof tokens.expires_in === "number" ? now + tokens.expires_in * 1000 : undefined,
    scope: tokens.scope ?? previous?.scope,
  };
}
