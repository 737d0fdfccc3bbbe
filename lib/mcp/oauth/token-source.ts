import { singleFlight } from "./single-flight";
import { isExpiring, type OAuthTokenSet } from "./token-set";

/** What one refresh attempt came to; the vault stores it under the same lock. */
export type RefreshOutcome =
  | { kind: "current"; tokens: OAuthTokenSet }
  | { kind: "refreshed"; tokens: OAuthTokenSet }
  | { kind: "revoked"; reason: string };

/** Where one connection's tokens live (the database, or memory for the CLI). */
export interface OAuthTokenVault {
  /** Identifies the tokens across the process: one refresh at a time per key. */
  readonly key: string;
  /** The tokens, nothing (never connected), or why they stopped working. */
  read(): Promise<OAuthTokenSet | { revoked: string } | undefined>;
  /**
   * Reads the tokens again with other refreshers (other processes too, where the store allows) kept out, runs
   * `refresh`, and stores its outcome before letting them in.
   */
  refreshLocked(
    refresh: (current: OAuthTokenSet | undefined) => Promise<RefreshOutcome>,
  ): Promise<RefreshOutcome>;
}

export type RefreshGrant = (refreshToken: string, previous: OAuthTokenSet) => Promise<OAuthTokenSet>;

export interface OAuthTokenSourceErrors {
  notConnected(): Error;
  reconnect(reason: string): Error;
  /** Whether a failed refresh means the grant is gone (revoked, expired), not that the server had a bad moment. */
  isRevocation(error: unknown): boolean;
}

/**
 * Hands out a valid access token for one connection: refreshed shortly before it expires and after the server
 * rejects it, one refresh at a time (concurrent callers wait for it), so a rotated refresh token is never sent
 * twice. A refresh the authorization server refuses ends in `reconnect`.
 */
export class OAuthTokenSource {
  constructor(
    private readonly vault: OAuthTokenVault,
    private readonly grant: RefreshGrant,
    private readonly errors: OAuthTokenSourceErrors,
  ) {}

  async accessToken(): Promise<string> {
    const tokens = await this.vault.read();
    if (!tokens) throw this.errors.notConnected();
    if ("revoked" in tokens) throw this.errors.reconnect(tokens.revoked);
    if (!isExpiring(tokens)) return tokens.accessToken;
    return this.refresh(tokens.accessToken);
  }

  /** The server refused `rejected`: a fresh token, or the one someone else refreshed meanwhile. */
  afterRejection(rejected: string): Promise<string> {
    return this.refresh(rejected, true);
  }

  /**
   * The server refused even a freshly refreshed token: the connection is marked for reconnecting, unless another
   * caller stored a newer token meanwhile, which is returned to try.
   */
  async rejectedAgain(token: string): Promise<string> {
    const outcome = await singleFlight(this.vault.key, () =>
      this.vault.refreshLocked(async (current) =>
        current && current.accessToken !== token
          ? { kind: "current", tokens: current }
          : { kind: "revoked", reason: "the server refuses its access token even after a refresh" },
      ),
    );
    if (outcome.kind === "revoked") throw this.errors.reconnect(outcome.reason);
    return outcome.tokens.accessToken;
  }

  private refresh(stale: string, rejected = false): Promise<string> {
    return singleFlight(this.vault.key, async () => {
      const outcome = await this.vault.refreshLocked(async (current) => {
        if (!current) throw this.errors.notConnected();
        // Another caller (or process) refreshed while this one waited for the lock.
        if (current.accessToken !== stale && !isExpiring(current))
          return { kind: "current", tokens: current };
        if (!current.refreshToken) {
          return {
            kind: "revoked",
            reason: rejected
              ? "the server no longer accepts its access token, and there is no refresh token"
              : "its access token expired, and the server gave no refresh token",
          };
        }
        try {
          return { kind: "refreshed", tokens: await this.grant(current.refreshToken, current) };
        } catch (error) {
          if (!this.errors.isRevocation(error)) throw error;
          return {
            kind: "revoked",
            reason:
              "the authorization server refused the refresh token (it may have been revoked or expired)",
          };
        }
      });
      if (outcome.kind === "revoked") throw this.errors.reconnect(outcome.reason);
      return outcome.tokens.accessToken;
    });
  }
}
