import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createLogger, redact } from "@/lib/logger";
import { payloadForRecord } from "@/lib/usage/record-usage";

// The format lib/api-keys/api-keys.ts issues: sb_<8 letters or digits>_<32 base64url characters>.
const apiKey = (prefix = "Ab3dEf9h") => `sb_${prefix}_${randomBytes(24).toString("base64url")}`;
const secretOf = (key: string) => key.slice("sb_12345678_".length);

describe("the app's own API keys are redacted like other secrets", () => {
  describe("in free text, wherever the key stands", () => {
    const key = apiKey();
    // A secret part with - and _ in it, and keys glued to other text.
    const awkward = "sb_Zz9Yy8Xx_-_abcdefghijklmnopqrstuvwxyz0123_-";

    it.each([
      ["alone", key],
      ["in a sentence", `my key is ${key}, use it`],
      ["in quotes", `"${key}"`],
      ["after a header name", `X-Api-Key:${key}`],
      ["in a URL's query", `https://example.org/hook?key=${key}&x=1`],
      ["glued to a word", `key_${key}`],
      ["with - and _ in its secret, in parentheses", `(${awkward})`],
    ])("%s", (_where, text) => {
      const out = String(redact(text));
      expect(out).not.toContain(secretOf(key));
      expect(out).not.toContain(secretOf(awkward));
      expect(out).toContain("[redacted]");
    });

    it("keeping the public prefix", () => {
      expect(redact(`use ${key} now`)).toBe("use sb_Ab3dEf9h_[redacted] now");
    });
  });

  it("in a recorded tool payload, also inside JSON text and object keys", () => {
    const key = apiKey();
    const recorded = payloadForRecord({
      query: `call the API with ${key}`,
      notes: [`first ${key}`],
      body: JSON.stringify({ message: `key: ${key}` }),
      [key]: "as a key",
    });
    expect(recorded).not.toBeNull();
    expect(recorded).not.toContain(secretOf(key));
    expect(recorded).toContain("sb_Ab3dEf9h_[redacted]");
  });

  it("in a recorded payload that is cut because it is large", () => {
    const key = apiKey();
    const recorded = payloadForRecord({ text: `${"x".repeat(9_950)} ${key} ${"y".repeat(5_000)}` });
    expect(recorded).toContain("truncated");
    expect(recorded).not.toContain(secretOf(key).slice(0, 8));
  });

  it("in log lines", () => {
    const key = apiKey();
    const lines: string[] = [];
    const log = createLogger({}, (line) => lines.push(line), "debug");
    log.info(`request with ${key}`, { detail: `header ${key}`, err: new Error(`bad key ${key}`) });
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain(secretOf(key));
    expect(lines[0]).toContain("sb_Ab3dEf9h_[redacted]");
  });

  it.each(["sb_short", "usb_Ab3dEf9h", "the sb_ prefix", "sb_Ab3dEf9h (a key's prefix)"])(
    "leaves text that only looks a little like a key alone: %s",
    (text) => {
      expect(redact(text)).toBe(text);
    },
  );
});
