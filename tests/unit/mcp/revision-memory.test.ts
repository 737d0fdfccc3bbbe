import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { forgetRevision, rememberedRevision, rememberRevision } from "@/lib/mcp/client/revision-memory";

const HOUR = 60 * 60 * 1000;

describe("remembered revisions", () => {
  it("keeps an HTTP server's 2025 verdict for an hour, a stdio server's for as long as the process runs", () => {
    const integrationId = randomUUID();
    const http = { integrationId, url: "https://mcp.example.test/mcp" };
    const stdio = { integrationId, command: "node", args: ["server.js"] };
    rememberRevision(http, { kind: "legacy" }, 0);
    rememberRevision(stdio, { kind: "legacy" }, 0);
    expect(rememberedRevision(http, HOUR)).toEqual({ kind: "legacy" });
    expect(rememberedRevision(http, HOUR + 1)).toBeUndefined();
    expect(rememberedRevision(stdio, 24 * HOUR)).toEqual({ kind: "legacy" });
  });

  it("tells stdio servers apart by their command and arguments", () => {
    const integrationId = randomUUID();
    const server = { integrationId, command: "node", args: ["server.js"] };
    rememberRevision(server, { kind: "legacy" });
    expect(rememberedRevision({ ...server, args: ["server.js", "--flag"] })).toBeUndefined();
    expect(rememberedRevision({ ...server, command: "deno" })).toBeUndefined();
    forgetRevision(server);
    expect(rememberedRevision(server)).toBeUndefined();
  });
});
