import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { decryptSecret, encryptSecret } from "@/lib/crypto/secret-box";

describe("secret box", () => {
  const key = randomBytes(32);

  it("round-trips a secret and never stores it in the clear", () => {
    const sealed = encryptSecret("ghp_supersecret", key);
    expect(sealed).toMatch(/^v1\./);
    expect(sealed).not.toContain("ghp_supersecret");
    expect(decryptSecret(sealed, key)).toBe("ghp_supersecret");
    expect(encryptSecret("ghp_supersecret", key)).not.toBe(sealed);
  });

  it("rejects a tampered value and a different key", () => {
    const sealed = encryptSecret("token", key);
    const parts = sealed.split(".");
    parts[3] = Buffer.from("tampered").toString("base64url");
    expect(() => decryptSecret(parts.join("."), key)).toThrow();
    expect(() => decryptSecret(sealed, randomBytes(32))).toThrow();
    expect(() => decryptSecret("plain", key)).toThrow(/Unrecognized/);
  });
});
