import { encryptSecret } from "@/lib/crypto/secret-box";

/** Each value encrypted for storage, under its own name. */
export const sealSecrets = (values: Record<string, string>) =>
  Object.fromEntries(Object.entries(values).map(([key, value]) => [key, encryptSecret(value)]));
