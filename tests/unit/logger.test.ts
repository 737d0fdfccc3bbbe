import { describe, expect, it } from "vitest";
import { createLogger, redact } from "@/lib/logger";

describe("logger", () => {
  it("writes one JSON object a line with level, message and fields", () => {
    const lines: string[] = [];
    const log = createLogger({ service: "t" }, (line) => lines.push(line), "debug");
    log.child({ requestId: "r1" }).info("hello", { count: 2 });
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? "")).toMatchObject({
      level: "info",
      msg: "hello",
      service: "t",
      requestId: "r1",
      count: 2,
    });
  });

  it("drops messages below the level", () => {
    const lines: string[] = [];
    const log = createLogger({}, (line) => lines.push(line), "warn");
    log.info("quiet");
    log.error("loud");
    expect(lines.map((line) => JSON.parse(line).msg)).toEqual(["loud"]);
  });

  it("redacts secret fields at any depth and bearer tokens inside strings", () => {
    const out = redact({
      password: "hunter2",
      nested: {
        apiKey: "sk-123",
        headers: { Authorization: "Bearer abc" },
        note: "sent Bearer abc.def to x",
      },
      list: [{ token: "t" }],
      error: new Error("Bearer zzz failed"),
      url: "postgres://app:pg-pass@db:5432/x?password=qs-pass",
    });
    const text = JSON.stringify(out);
    for (const secret of ["hunter2", "sk-123", "abc", "zzz", '"t"', "pg-pass", "qs-pass"])
      expect(text).not.toContain(secret);
    expect(text).toContain("[redacted]");
  });

  it("keeps a record's id in a secret-sounding field, so API keys can be told apart, and nothing else there", () => {
    const id = "0b6c7a52-3f1e-4c8e-9d2a-5e4f3a2b1c0d";
    const out = redact({ apiKeyId: id, api_key_id: id, apiKeyIds: [id], apiKey: id, tokenId: "sk-123" });
    expect(out).toEqual({
      apiKeyId: id,
      api_key_id: id,
      apiKeyIds: "[redacted]",
      apiKey: "[redacted]",
      tokenId: "[redacted]",
    });
  });
});
