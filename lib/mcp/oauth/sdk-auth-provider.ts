import type { OAuthClientProvider, OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";

/** Where a connection keeps what the authorization flow learns: the client registration, discovery and tokens. */
export interface OAuthConnectStore {
  client(): Promise<OAuthClientInformationMixed | undefined>;
  saveClient(client: OAuthClientInformationMixed): Promise<void>;
  forgetClient(): Promise<void>;
  discovery(): Promise<OAuthDiscoveryState | undefined>;
  saveDiscovery(state: OAuthDiscoveryState): Promise<void>;
  forgetDiscovery(): Promise<void>;
  saveTokens(tokens: OAuthTokens): Promise<void>;
}

/** A client an administrator registered with the provider beforehand, instead of dynamic registration. */
export interface PreRegisteredClient {
  clientId: string;
  clientSecret?: string;
}

export interface ConnectProviderOptions {
  redirectUrl: string;
  /** The `state` sent to the authorization server and checked when it redirects back. */
  state: string;
  /** Scopes to ask for when neither the server's challenge nor its metadata names any. */
  scope?: string;
  /** The PKCE verifier of a flow started earlier, when finishing it. */
  codeVerifier?: string;
  store: OAuthConnectStore;
  client?: PreRegisteredClient;
}

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * The registration's application type (SEP-837, after OpenID Connect's): "native" for a redirect to this machine's
 * loopback (the CLI, or the app run locally), "web" for an app served at its own address.
 */
function applicationTypeOf(redirectUrl: string): "native" | "web" {
  return LOOPBACK_HOSTS.has(new URL(redirectUrl).hostname) ? "native" : "web";
}

/**
 * The SDK's OAuth client provider for one connect flow: the SDK discovers, registers, builds the PKCE
 * authorization URL and exchanges the code; this keeps what it learns in the store and captures the URL to send
 * the user to. It never offers stored tokens, so connecting always asks for a fresh grant.
 */
export class ConnectOAuthProvider implements OAuthClientProvider {
  authorizationUrl: URL | undefined;
  readonly saveClientInformation?: (client: OAuthClientInformationMixed) => Promise<void>;
  private verifier: string | undefined;

  constructor(private readonly options: ConnectProviderOptions) {
    this.verifier = options.codeVerifier;
    // Without this the SDK never registers, which is right for a pre-registered client.
    if (!options.client) this.saveClientInformation = (client) => options.store.saveClient(client);
  }

  get redirectUrl(): string {
    return this.options.redirectUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    // The SDK sends the metadata as it is given; its type predates application_type.
    const metadata = {
      client_name: "Switchboard",
      application_type: applicationTypeOf(this.options.redirectUrl),
      redirect_uris: [this.options.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      ...(this.options.scope ? { scope: this.options.scope } : {}),
    };
    return metadata;
  }

  state(): string {
    return this.options.state;
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    const preRegistered = this.options.client;
    if (preRegistered) {
      return {
        client_id: preRegistered.clientId,
        ...(preRegistered.clientSecret ? { client_secret: preRegistered.clientSecret } : {}),
      };
    }
    const registered = await this.options.store.client();
    // A registration made for another redirect URL (the app moved) cannot be used: register again.
    const uris = registered && "redirect_uris" in registered ? registered.redirect_uris : undefined;
    if (uris && !uris.includes(this.options.redirectUrl)) return undefined;
    return registered;
  }

  tokens(): undefined {
    return undefined;
  }

  saveTokens(tokens: OAuthTokens): Promise<void> {
    return this.options.store.saveTokens(tokens);
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    this.authorizationUrl = authorizationUrl;
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (!this.verifier) throw new Error("This authorization flow has no PKCE verifier.");
    return this.verifier;
  }

  discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    return this.options.store.discovery();
  }

  saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    return this.options.store.saveDiscovery(state);
  }

  async invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): Promise<void> {
    if ((scope === "all" || scope === "client") && !this.options.client)
      await this.options.store.forgetClient();
    // Each authorization starts with a discovery whose issuer was checked; after "all" the SDK would discover
    // again without that check, so only an explicit "discovery" forgets it.
    if (scope === "discovery") await this.options.store.forgetDiscovery();
  }
}
