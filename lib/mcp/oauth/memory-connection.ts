import type { OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import type { OAuthConnectStore } from "./sdk-auth-provider";
import { type OAuthTokenSet, tokenSetFrom } from "./token-set";

/** One connection's OAuth state held in memory, for a process that connects once and exits (the CLI). */
export class MemoryOAuthConnection implements OAuthConnectStore {
  private registered: OAuthClientInformationMixed | undefined;
  private discovered: OAuthDiscoveryState | undefined;
  private current: OAuthTokenSet | undefined;

  async client() {
    return this.registered;
  }
  async saveClient(client: OAuthClientInformationMixed) {
    this.registered = client;
  }
  async forgetClient() {
    this.registered = undefined;
  }
  async discovery() {
    return this.discovered;
  }
  async saveDiscovery(state: OAuthDiscoveryState) {
    this.discovered = state;
  }
  async forgetDiscovery() {
    this.discovered = undefined;
  }
  async saveTokens(tokens: OAuthTokens) {
    this.current = tokenSetFrom(tokens);
  }
  accessToken(): string | undefined {
    return this.current?.accessToken;
  }
}
