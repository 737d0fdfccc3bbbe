import { describe, it } from "vitest";

// Tests of several instances sharing one PostgreSQL server. They are registered only on the PostgreSQL pass of
// `npm test` (which runs when DATABASE_URL is set, and which CI requires), so the PGlite pass does not count them
// as skipped.
const onPostgres = Boolean(process.env.DATABASE_URL);

export const describeOnPostgres: (name: string, body: () => void) => void = (name, body) => {
  if (onPostgres) describe(name, () => body());
};

export const itOnPostgres: (name: string, body: () => Promise<void>, timeout?: number) => void = (
  name,
  body,
  timeout,
) => {
  if (onPostgres) it(name, body, timeout);
};
