import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * What the authorization server hands out, each a random string with a prefix that says what it is (and lets the
 * logger redact it): access and refresh tokens, authorization codes, client secrets. Only their SHA-256 is stored:
 * 32 random bytes need no slow hash, and lookups stay one index read.
 */
export const SECRET_PREFIXES = {
  accessToken: "sbo_at_",
  refreshToken: "sbo_rt_",
  code: "sbo_ac_",
  clientSecret: "sbo_cs_",
} as const;

export type SecretKind = keyof typeof SECRET_PREFIXES;

export function newSecret(kind: SecretKind): string {
  return `${SECRET_PREFIXES[kind]}${randomBytes(32).toString("base64url")}`;
}

export const hashSecret = (secret: string) => createHash("sha256").update(secret).digest("hex");

/** A secret of that kind, as issued: its prefix and 43 base64url characters. */
export function looksLike(kind: SecretKind, value: string): boolean {
  return (
    value.startsWith(SECRET_PREFIXES[kind]) &&
    /^[A-Za-z0-9_-]{43}$/.test(value.slice(SECRET_PREFIXES[kind].length))
  );
}

/** Compares a presented secret with a stored hash in constant time. */
export function matchesHash(secret: string, hash: string): boolean {
  const presented = Buffer.from(hashSecret(secret), "hex");
  const stored = Buffer.from(hash, "hex");
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}

/** An id for a pending authorization request: unguessable, as it stands for the request in the consent URL. */
export const newRequestId = () => randomBytes(18).toString("base64url");
