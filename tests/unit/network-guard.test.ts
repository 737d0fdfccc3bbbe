import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import {
  assertPublicLiteral,
  createGuardedFetch,
  isPrivateAddress,
  PrivateNetworkError,
} from "@/lib/mcp/client/network-guard";

describe("network guard", () => {
  it.each([
    "127.0.0.1",
    "10.1.2.3",
    "172.16.0.1",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "::1",
    "fd00:ec2::254",
    "fe80::1",
    "::ffff:127.0.0.1",
  ])("knows %s as a private, loopback, link-local or metadata address", (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each(["8.8.8.8", "1.1.1.1", "2606:4700:4700::1111"])("knows %s as a public address", (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });

  it.each([
    "http://localhost:3000/mcp",
    "http://127.0.0.1/mcp",
    "http://[::1]/mcp",
    "http://169.254.169.254/latest",
  ])("refuses %s, which names a private address literally", (url) => {
    expect(() => assertPublicLiteral(new URL(url))).toThrow(PrivateNetworkError);
  });

  it("lets a URL with a public host name through", () => {
    expect(() => assertPublicLiteral(new URL("https://mcp.example.com/mcp"))).not.toThrow();
  });

  it("refuses to connect to a loopback server unless private networks are allowed", async () => {
    const server = createServer((_req, res) => res.end("hello")).listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    try {
      await expect(createGuardedFetch(false)(url)).rejects.toThrow(/MCP_ALLOW_PRIVATE_NETWORKS/);
      // A host name resolving to loopback is refused after DNS resolution, at connect time.
      const named = url.replace("127.0.0.1", "localhost.");
      await expect(createGuardedFetch(false)(named)).rejects.toThrow();
      expect(await (await createGuardedFetch(true)(url)).text()).toBe("hello");
    } finally {
      server.close();
    }
  });
});
