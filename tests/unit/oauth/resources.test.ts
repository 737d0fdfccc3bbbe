import { describe, expect, it } from "vitest";
import { isMetadataDocumentUrl } from "@/lib/oauth-server/client-metadata-document";
import { endpointOfResource, resourceMetadataUrl } from "@/lib/oauth-server/resources";

const origin = "https://switchboard.example.com";

describe("resources (RFC 8707)", () => {
  it.each([
    [`${origin}/api/mcp`, "gateway"],
    [`${origin}/api/mcp/`, "gateway"],
    ["HTTPS://SWITCHBOARD.example.com/api/mcp", "gateway"],
    [`${origin}/api/mcp/integrations/linear_2`, "integrations/linear_2"],
  ])("names %s as the endpoint %s", (resource, endpoint) => {
    expect(endpointOfResource(origin, resource)).toBe(endpoint);
  });

  it.each([
    "https://other.example/api/mcp",
    `${origin}/api/mcp#fragment`,
    `${origin}/api/mcp?x=1`,
    `${origin}/api/mcp/tools`,
    `${origin}/api/mcp/integrations/a/b`,
    `${origin}`,
    "not a url",
  ])("refuses %s", (resource) => {
    expect(endpointOfResource(origin, resource)).toBeUndefined();
  });

  it("puts each endpoint's metadata at the path-aware well-known location (RFC 9728)", () => {
    expect(resourceMetadataUrl(origin, "gateway")).toBe(
      `${origin}/.well-known/oauth-protected-resource/api/mcp`,
    );
    expect(resourceMetadataUrl(origin, "integrations/docs")).toBe(
      `${origin}/.well-known/oauth-protected-resource/api/mcp/integrations/docs`,
    );
  });
});

describe("Client ID Metadata Document URLs", () => {
  it.each(["https://app.example.com/client.json", "https://app.example.com/oauth/client?x=1"])(
    "takes %s",
    (url) => {
      expect(isMetadataDocumentUrl(url)).toBe(true);
    },
  );

  it.each([
    "http://app.example.com/client.json",
    "https://app.example.com",
    "https://app.example.com/",
    "https://app.example.com/a/../client.json",
    "https://app.example.com/%2e%2e/client.json",
    "https://user@app.example.com/client.json",
    "https://app.example.com/client.json#x",
    "sbo_client_abc",
  ])("refuses %s", (url) => {
    expect(isMetadataDocumentUrl(url)).toBe(false);
  });
});
