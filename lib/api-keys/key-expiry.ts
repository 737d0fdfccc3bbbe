import { z } from "zod";
import { ValidationError } from "@/lib/errors";
import { parseInput } from "@/lib/validation";

const DAY_MS = 86_400_000;
const MAX_DAYS = 3650;

const DATE_MESSAGE = "Give the expiry as a date like 2027-01-31 or a time like 2027-01-31T18:00:00Z.";

/** An expiry as the keys page, the CLI and tests give it: a number of days from now, or a date or instant. */
const apiKeyExpiryInputSchema = z
  .object({
    expiresInDays: z
      .number({ error: "The days until expiry are a whole number." })
      .int({ error: "The days until expiry are a whole number." })
      .min(1, { error: "A key expires at least 1 day from now." })
      .max(MAX_DAYS, { error: `A key expires at most ${MAX_DAYS} days from now.` })
      .optional(),
    expiresAt: z
      .union(
        [
          z.date(),
          z.iso.date({ error: DATE_MESSAGE }),
          z.iso.datetime({ offset: true, error: DATE_MESSAGE }),
        ],
        {
          error: DATE_MESSAGE,
        },
      )
      .nullable()
      .optional(),
  })
  .refine((input) => input.expiresInDays === undefined || input.expiresAt == null, {
    error: "Give either the days until expiry or the expiry date, not both.",
    path: ["expiresAt"],
  });

/**
 * The instant a key stops working, or null for never; a ValidationError on the field at fault otherwise. A date
 * without a time keeps the key working through that day (UTC), so it expires when the next UTC day starts.
 */
export function resolveExpiry(input: unknown, now: Date): Date | null {
  const { expiresInDays, expiresAt } = parseInput(apiKeyExpiryInputSchema, input);
  if (expiresInDays !== undefined) return new Date(now.getTime() + expiresInDays * DAY_MS);
  if (expiresAt == null) return null;
  const instant =
    expiresAt instanceof Date
      ? expiresAt
      : /^\d{4}-\d{2}-\d{2}$/.test(expiresAt)
        ? new Date(Date.parse(`${expiresAt}T00:00:00Z`) + DAY_MS)
        : new Date(expiresAt);
  const refuse = (message: string) => new ValidationError(message, { expiresAt: [message] });
  if (Number.isNaN(instant.getTime())) throw refuse(DATE_MESSAGE);
  if (instant.getTime() <= now.getTime()) throw refuse("Choose an expiry in the future.");
  if (instant.getTime() > now.getTime() + MAX_DAYS * DAY_MS)
    throw refuse(`Choose an expiry at most ${MAX_DAYS} days from now.`);
  return instant;
}

/** Whether a key with this expiry is refused at `now`. */
export function hasExpired(expiresAt: Date | null, now: Date): boolean {
  return expiresAt !== null && expiresAt.getTime() <= now.getTime();
}
