import { z } from "zod";

export const PASSWORD_MIN_LENGTH = 8;

export const emailSchema = z
  .string({ error: "Enter your email address." })
  .trim()
  .toLowerCase()
  .pipe(z.email({ error: "Enter a valid email address, like name@example.com." }));

export const passwordSchema = z
  .string({ error: "Enter a password." })
  .min(PASSWORD_MIN_LENGTH, { error: `Use at least ${PASSWORD_MIN_LENGTH} characters for the password.` })
  .max(200, { error: "Use at most 200 characters for the password." });

export const personNameSchema = z
  .string()
  .trim()
  .min(1, { error: "Enter your name." })
  .max(100, { error: "Use at most 100 characters for the name." });

export const credentialsSchema = z.object({
  email: emailSchema,
  password: z.string().min(1, { error: "Enter your password." }),
});
