import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { readOrCreateSecret } from "@/lib/data-dir";
import { getEnv } from "@/lib/env";

const VERSION = "v1";

/** The 32-byte key: ENCRYPTION_KEY, or one generated once in the data folder for development. */
export function encryptionKey(): Buffer {
  const configured = getEnv().ENCRYPTION_KEY;
  const key = Buffer.from(
    configured ?? readOrCreateSecret("encryption-key"),
    configured ? "base64" : "base64url",
  );
  if (key.length !== 32) throw new Error("The encryption key must be 32 bytes.");
  return key;
}

/** Encrypts a secret with AES-256-GCM: `v1.<iv>.<tag>.<ciphertext>`, all base64url. */
export function encryptSecret(plaintext: string, key: Buffer = encryptionKey()): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const data = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), data]
    .map((part) => (typeof part === "string" ? part : part.toString("base64url")))
    .join(".");
}

/** Decrypts what encryptSecret produced; a changed key or tampered value throws. */
export function decryptSecret(sealed: string, key: Buffer = encryptionKey()): string {
  const [version, iv, tag, data] = sealed.split(".");
  if (version !== VERSION || !iv || !tag || data === undefined)
    throw new Error("Unrecognized encrypted value.");
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
}
