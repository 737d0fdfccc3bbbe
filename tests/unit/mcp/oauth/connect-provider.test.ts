import { describe, expect, it } from "vitest";
import { MemoryOAuthConnection } from "@/lib/mcp/oauth/memory-connection";
import { ConnectOAuthProvider } from "@/lib/mcp/oauth/sdk-auth-provider";

const discovery = { authorizationServerUrl: "https://as.example/" };

async function providerWithState() {
  const store = new MemoryOAuthConnection();
  await store.saveClient({ client_id: "c1", redirect_uris: ["http://127.0.0.1:1/callback"] });
  await store.saveDiscovery(discovery);
  return {
    store,
    provider: new ConnectOAuthProvider({ redirectUrl: "http://127.0.0.1:1/callback", state: "s", store }),
  };
}

describe("the connect flow's provider, when the SDK invalidates credentials", () => {
  it("forgets the registration on 'all' but keeps the discovery whose issuer was checked", async () => {
    const { store, provider } = await providerWithState();
    await provider.invalidateCredentials("all");
    expect(await store.client()).toBeUndefined();
    expect(await provider.discoveryState()).toEqual(discovery);
  });

  it("forgets the discovery when asked for that alone", async () => {
    const { store, provider } = await providerWithState();
    await provider.invalidateCredentials("discovery");
    expect(await provider.discoveryState()).toBeUndefined();
    expect(await store.client()).toMatchObject({ client_id: "c1" });
  });
});
