import { z } from "zod";

export const roles = ["owner", "admin", "member"] as const;
export const roleSchema = z.enum(roles, { error: "Choose a role: owner, admin or member." });

export const orgSlugSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9](?:[a-z0-9-]{0,46}[a-z0-9])?$/, {
    error: "Use 1–48 lowercase letters, digits and dashes for the slug, not starting or ending with a dash.",
  });

export const orgNameSchema = z
  .string()
  .trim()
  .min(1, { error: "Enter a name for the organization." })
  .max(100, { error: "Use at most 100 characters for the organization name." });

/** A URL-safe slug derived from a display name. */
export function slugify(name: string): string {
  const slug = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40)
    .replace(/-+$/g, "");
  return slug || "org";
}
