import { readFileSync } from "node:fs";
import path from "node:path";
import { Server, WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import { CHECKED_SDK_VERSION } from "@/lib/gateway/checked-sdk";
import { MAX_BATCH_SIZE, readGatewayMessages, requestBodyTooLargeMessage } from "@/lib/gateway/gateway-body";

const installed = (name: string) =>
  (
    JSON.parse(readFileSync(path.resolve("node_modules", name, "package.json"), "utf8")) as {
      version: string;
    }
  ).version;

const post = (body: string, headers: Record<string, string> = {}) =>
  new Request("http://localhost/mcp", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body,
  });

/** What the SDK's own transport answers a request with, for a stateless server. */
async function sdkAnswer(request: Request) {
  const server = new Server({ name: "check", version: "1.0.0" }, { capabilities: {} });
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  const response = await transport.handleRequest(request);
  await server.close();
  return { status: response.status, body: await response.json() };
}

describe("what the gateway copies from the SDK", () => {
  it("was checked against the installed release of the server package", () => {
    // Another release may answer otherwise: compare the copies named in lib/gateway/checked-sdk.ts again.
    expect(installed("@modelcontextprotocol/server")).toBe(CHECKED_SDK_VERSION);
    expect(installed("@modelcontextprotocol/core")).toBe(CHECKED_SDK_VERSION);
  });

  it("refuses a batch over the SDK's size as the SDK's transport does", async () => {
    const message = (id: number) => ({ jsonrpc: "2.0", id, method: "ping" });
    const over = JSON.stringify(Array.from({ length: MAX_BATCH_SIZE + 1 }, (_, i) => message(i)));
    const sdk = await sdkAnswer(post(over));
    expect(sdk.status).toBe(400);
    expect(sdk.body.error.code).toBe(-32600);
    expect(sdk.body.error.message).toContain(`${MAX_BATCH_SIZE} messages`);
    const ours = await readGatewayMessages(post(over));
    expect(ours).toBeInstanceOf(Response);
    expect((ours as Response).status).toBe(400);
    expect((await (ours as Response).json()).error.code).toBe(-32600);
    const atLimit = JSON.stringify(Array.from({ length: MAX_BATCH_SIZE }, (_, i) => message(i)));
    expect(await readGatewayMessages(post(atLimit))).toMatchObject({ messages: MAX_BATCH_SIZE });
  });

  it("refuses a body over the SDK's limit with the SDK's message", async () => {
    const huge = post("[]", { "content-length": String(5 * 1024 * 1024) });
    const sdk = await sdkAnswer(huge.clone());
    expect(sdk.status).toBe(413);
    const ours = (await readGatewayMessages(huge)) as Response;
    expect(ours.status).toBe(413);
    expect((await ours.json()).error.message).toBe(sdk.body.error.message);
    expect(sdk.body.error.message).toBe(requestBodyTooLargeMessage(4 * 1024 * 1024));
  });
});
