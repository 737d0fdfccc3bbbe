import { createHash, randomBytes } from "node:crypto";

// 32 random bytes in base64url: unguessable, so a fast hash at rest is safe (as for API keys).
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** A new random invitation token; only its hash is stored. */
export function newInvitationToken(): string {
  return randomBytes(32).toString("base64url");
}

export function hashInvitationToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Whether a string from a URL can be a token at all, so malformed links are told apart without a query. */
export function isInvitationToken(value: string): boolean {
  return TOKEN_PATTERN.test(value);
}

/** The link that opens an invitation, on the address users reach the app at. */
export function invitationLink(origin: string, token: string): string {
  return `${new URL(origin).origin}/invite/${token}`;
}
