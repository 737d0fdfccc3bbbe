import { z } from "zod";

export const integrationNameSchema = z
  .string({ error: "Enter a name." })
  .trim()
  .min(1, { error: "Enter a name." })
  .max(60, { error: "Use at most 60 characters for the name." });

const urlSchema = z
  .string({ error: "Enter the server's URL." })
  .trim()
  .min(1, { error: "Enter the server's URL." })
  .refine(
    (value) => {
      try {
        return ["http:", "https:"].includes(new URL(value).protocol);
      } catch {
        return false;
      }
    },
    { error: "Enter a full http:// or https:// URL, like https://mcp.example.com/mcp." },
  );

const headerName = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;
const FORBIDDEN_HEADERS = new Set([
  "host",
  "content-length",
  "connection",
  "transfer-encoding",
  "mcp-session-id",
  "accept",
  "content-type",
]);

/** Header names and values, without a default: an edit that leaves them out keeps the stored ones. */
const headerRecordSchema = z.record(z.string(), z.string()).superRefine((headers, issue) => {
  for (const [name, value] of Object.entries(headers)) {
    if (!headerName.test(name))
      issue.addIssue({ code: "custom", message: `"${name}" is not a valid header name.` });
    else if (FORBIDDEN_HEADERS.has(name.toLowerCase())) {
      issue.addIssue({ code: "custom", message: `The header ${name} is set by the connection itself.` });
    }
    if (/[\r\n]/.test(value))
      issue.addIssue({ code: "custom", message: `The value of ${name} cannot contain line breaks.` });
  }
});

export const headersSchema = headerRecordSchema.default({});

export const timeoutSchema = z.coerce
  .number({ error: "Enter the timeout in seconds." })
  .int({ error: "Enter the timeout as a whole number of milliseconds." })
  .min(1000, { error: "Use a timeout of at least 1 second." })
  .max(300_000, { error: "Use a timeout of at most 300 seconds." });

const scopeSchema = z
  .string()
  .trim()
  .max(1000, { error: "Use at most 1,000 characters for the scopes." })
  .refine((value) => !/[\r\n"\\]/.test(value), { error: "Scopes are separated by spaces, without quotes." })
  .optional();

const oauthCredentialsSchema = z.enum(["organization", "user"], {
  error: "Choose who connects: the organization once, or each user.",
});

/** How an OAuth integration is connected; the client id and secret are for a client registered beforehand. */
export const oauthInputSchema = {
  oauthCredentials: oauthCredentialsSchema.default("organization"),
  oauthScope: scopeSchema,
  oauthClientId: z.string().trim().max(500, { error: "That client id is too long." }).optional(),
  oauthClientSecret: z.string().trim().max(2000, { error: "That client secret is too long." }).optional(),
};

export const catalogInputSchema = z.object({
  source: z.literal("catalog"),
  presetKey: z.string().min(1),
  name: integrationNameSchema.optional(),
  credentials: z.record(z.string(), z.string()).default({}),
  timeoutMs: timeoutSchema.optional(),
});

export const customInputSchema = z.discriminatedUnion("transport", [
  z.object({
    source: z.literal("custom"),
    name: integrationNameSchema,
    transport: z.enum(["streamable-http", "sse"]),
    url: urlSchema,
    authType: z.enum(["none", "bearer", "headers", "oauth"]).default("none"),
    token: z.string().trim().optional(),
    headers: headersSchema,
    ...oauthInputSchema,
    timeoutMs: timeoutSchema.optional(),
  }),
  z.object({
    source: z.literal("custom"),
    name: integrationNameSchema,
    transport: z.literal("stdio"),
    command: z.string().trim().min(1, { error: "Enter the command to run." }),
    args: z.array(z.string()).default([]),
    env: z.record(z.string(), z.string()).default({}),
    timeoutMs: timeoutSchema.optional(),
  }),
]);

export const createIntegrationSchema = z.union([catalogInputSchema, customInputSchema], {
  error: "Choose a server from the catalog or describe a custom one.",
});
export type CreateIntegrationInput = z.input<typeof createIntegrationSchema>;

export const updateIntegrationSchema = z.object({
  name: integrationNameSchema.optional(),
  url: urlSchema.optional(),
  transport: z.enum(["streamable-http", "sse"]).optional(),
  authType: z.enum(["none", "bearer", "headers", "oauth"]).optional(),
  // No defaults in an edit: a field left out keeps what is stored (a default would reset it).
  oauthCredentials: oauthCredentialsSchema.optional(),
  oauthScope: scopeSchema,
  oauthClientId: oauthInputSchema.oauthClientId,
  /** A new client secret; blank or absent keeps the stored one. */
  oauthClientSecret: oauthInputSchema.oauthClientSecret,
  /** A new token; blank or absent keeps the stored one. */
  token: z.string().trim().optional(),
  /** New header values; a blank value keeps the stored one, a name left out removes it. */
  headers: headerRecordSchema.optional(),
  credentials: z.record(z.string(), z.string()).optional(),
  timeoutMs: timeoutSchema.optional(),
});
export type UpdateIntegrationInput = z.input<typeof updateIntegrationSchema>;
/** An edit once parsed. */
export type ParsedIntegrationUpdate = z.output<typeof updateIntegrationSchema>;
