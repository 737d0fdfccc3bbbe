/** What a server action returns to its form: a message, per-field messages, and the values to keep. */
export type FormState = {
  error?: string;
  success?: string;
  fields?: Record<string, string[]>;
  values?: Record<string, string>;
};
