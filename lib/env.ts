import { z } from "zod";

const optionalString = z
  .string()
  .trim()
  .transform((value) => (value === "" ? undefined : value))
  .optional();

const optionalUrl = (protocols: readonly string[]) =>
  optionalString.refine(
    (value) => {
      if (value === undefined) return true;
      try {
        return protocols.includes(new URL(value).protocol);
      } catch {
        return false;
      }
    },
    { message: `must be a URL starting with ${protocols.map((p) => `${p}//`).join(" or ")}` },
  );

/** The value as a URL, or undefined when unset or not one (a refinement before has said so). */
const parsedUrl = (value: string | undefined) => {
  try {
    return value === undefined ? undefined : new URL(value);
  } catch {
    return undefined;
  }
};

const booleanFlag = optionalString
  .refine((value) => value === undefined || ["true", "false", "1", "0"].includes(value), {
    message: 'must be "true" or "false"',
  })
  .transform((value) => value === "true" || value === "1");

/** A whole number with a unit for the message, and its default when unset. */
const wholeNumber = (unit: string, fallback: number) =>
  optionalString
    .refine((value) => value === undefined || /^\d+$/.test(value), {
      message: `must be a whole number of ${unit}`,
    })
    .transform((value) => (value === undefined ? fallback : Number(value)));

export const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: optionalString
    .refine((value) => value === undefined || /^\d{1,5}$/.test(value), { message: "must be a port number" })
    .transform((value) => (value === undefined ? 3000 : Number(value))),
  DATA_DIR: optionalString.transform((value) => value ?? ".data"),
  DATABASE_URL: optionalUrl(["postgres:", "postgresql:"]),
  AUTH_SECRET: optionalString.refine((value) => value === undefined || value.length >= 32, {
    message: "must be at least 32 characters (generate one with `openssl rand -base64 32`)",
  }),
  /** The app's public address: its own origin for redirects, OAuth issuer and metadata. */
  AUTH_URL: optionalUrl(["https:", "http:"]),
  /** The app runs behind a proxy that sets X-Forwarded-Host and X-Forwarded-Proto, which may then be believed. */
  AUTH_TRUST_HOST: booleanFlag.default(false),
  AUTH_GITHUB_ID: optionalString,
  AUTH_GITHUB_SECRET: optionalString,
  AUTH_OIDC_ISSUER: optionalUrl(["https:", "http:"]),
  AUTH_OIDC_ID: optionalString,
  AUTH_OIDC_SECRET: optionalString,
  AUTH_OIDC_NAME: optionalString.transform((value) => value ?? "Single sign-on"),
  OPENAI_API_KEY: optionalString,
  OPENAI_BASE_URL: optionalUrl(["https:", "http:"]),
  CHAT_MODEL: optionalString.transform((value) => value ?? "gpt-4o-mini"),
  ELASTICSEARCH_URL: optionalUrl(["https:", "http:"]),
  ELASTICSEARCH_INDEX: optionalString.transform((value) => value ?? "switchboard-knowledge"),
  ELASTICSEARCH_API_KEY: optionalString,
  ENCRYPTION_KEY: optionalString.refine(
    (value) => value === undefined || Buffer.from(value, "base64").length === 32,
    { message: "must be 32 bytes in base64 (generate one with `openssl rand -base64 32`)" },
  ),
  MCP_ALLOW_STDIO: booleanFlag.default(false),
  MCP_ALLOW_PRIVATE_NETWORKS: booleanFlag.default(false),
  /**
   * Offers the catalog's reference and test servers (the "Everything" server fetches any URL from this host).
   * Unset or empty: on in development and tests, off in production (resolved by parseEnv from NODE_ENV).
   */
  MCP_DEMO_SERVERS: booleanFlag,
  /** Host names the MCP gateway answers besides localhost (DNS rebinding protection), comma-separated. */
  MCP_ALLOWED_HOSTS: optionalString
    .refine(
      (value) =>
        value === undefined || /^[a-z0-9.:[\]-]+(,[a-z0-9.:[\]-]+)*$/i.test(value.replace(/\s/g, "")),
      {
        message: "must be host names separated by commas, like switchboard.example.com,mcp.example.com",
      },
    )
    .transform((value) =>
      (value ?? "")
        .split(",")
        .map((host) => host.trim().toLowerCase())
        .filter(Boolean),
    ),
  MCP_TIMEOUT_MS: wholeNumber("milliseconds", 30_000),
  MCP_IDLE_TIMEOUT_MS: wholeNumber("milliseconds", 300_000),
  /**
   * Items per page of the gateway's tools/list, resources/list, prompts/list and template lists; 0 answers each
   * in one page, since many clients read only the first page.
   */
  MCP_LIST_PAGE_SIZE: wholeNumber("items a page (0: all in one)", 0),
  /**
   * Local (stdio) MCP server processes this instance runs at once, about 70 MB each: 32 is some 2.2 GB.
   * 0 turns the limit off.
   */
  MCP_MAX_PROCESSES: wholeNumber("processes (0 turns the limit off)", 32),
  /** The same per organization: 8 (some 560 MB) leaves room for four organizations at their limit. */
  MCP_MAX_PROCESSES_PER_ORG: wholeNumber("processes (0 turns the limit off)", 8),
  CAPABILITY_TIMEOUT_MS: wholeNumber("milliseconds", 30_000),
  CAPABILITY_MEMORY_MB: wholeNumber("megabytes", 64),
  CAPABILITY_MAX_OUTPUT_BYTES: wholeNumber("bytes", 1_048_576),
  CAPABILITY_MAX_CONCURRENT_RUNS: wholeNumber("runs", 8).refine((value) => value >= 1, {
    message: "must be at least 1",
  }),
  CHAT_TOOL_RESULT_MAX_CHARS: wholeNumber("characters", 20_000),
  /** The largest file a person may attach in the chat (10 MiB); larger uploads are refused with 413. */
  CHAT_FILE_MAX_BYTES: wholeNumber("bytes", 10_485_760).refine((value) => value >= 1, {
    message: "must be at least 1",
  }),
  /** How long a file uploaded to a conversation but named by none of its messages is kept (unsent, or removed). */
  CHAT_FILE_ORPHAN_TTL_HOURS: wholeNumber("hours", 24).refine((value) => value >= 1, {
    message: "must be at least 1",
  }),
  /**
   * The S3-compatible store for chat files, addressed by path: endpoint and bucket (and an optional key prefix),
   * like https://s3.example.com/switchboard-files. Unset: the files are kept in the database.
   */
  CHAT_FILE_S3_URL: optionalUrl(["https:", "http:"])
    .refine((value) => parsedUrl(value)?.pathname.split("/").some(Boolean) ?? true, {
      message: "must name the bucket as the URL's path, like https://s3.example.com/switchboard-files",
    })
    .refine((value) => !parsedUrl(value)?.username && !parsedUrl(value)?.password, {
      message:
        "must not carry credentials: set CHAT_FILE_S3_ACCESS_KEY_ID and CHAT_FILE_S3_SECRET_ACCESS_KEY",
    })
    .refine((value) => !parsedUrl(value)?.search && !parsedUrl(value)?.hash, {
      message: "must be the endpoint and bucket only, with no ?query or #fragment",
    }),
  CHAT_FILE_S3_REGION: optionalString.transform((value) => value ?? "us-east-1"),
  CHAT_FILE_S3_ACCESS_KEY_ID: optionalString,
  CHAT_FILE_S3_SECRET_ACCESS_KEY: optionalString,
  /**
   * How long a conversation start, or a listing that meets a never-discovered integration, waits for servers
   * before going on with what has answered.
   */
  DISCOVERY_BUDGET_MS: wholeNumber("milliseconds", 3_000),
  /** Discoveries that tool listings start (stale or never made) running at once in this process; others wait. */
  DISCOVERY_CONCURRENCY: wholeNumber("discoveries", 4).refine((value) => value >= 1, {
    message: "must be at least 1",
  }),
  /** How often the background health check rediscovers every enabled integration; 0 turns it off. */
  HEALTH_CHECK_INTERVAL_MS: wholeNumber("milliseconds", 300_000),
  /** How long a stopping instance answers not ready before it closes (read by scripts/serve.mjs). */
  SHUTDOWN_DRAIN_MS: wholeNumber("milliseconds", 0),
  API_RATE_LIMIT_PER_MINUTE: optionalString
    .refine((value) => value === undefined || /^\d+$/.test(value), {
      message: "must be a whole number (0 turns the limit off)",
    })
    .transform((value) => (value === undefined ? 600 : Number(value))),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  /** Bearer token of GET /api/metrics; unset, the endpoint answers 404. */
  METRICS_TOKEN: optionalString.refine((value) => value === undefined || value.length >= 16, {
    message: "must be at least 16 characters",
  }),
  /** Metrics carry the organization as a label (one series per organization: mind the cardinality). */
  METRICS_ORG_LABEL: booleanFlag.default(false),
  ALLOW_REGISTRATION: booleanFlag.default(true),
  /** MCP clients may register themselves with the authorization server (RFC 7591 dynamic client registration). */
  OAUTH_DYNAMIC_REGISTRATION: booleanFlag.default(true),
  /** Dynamic client registrations per minute from one address; 0 turns the limit off. */
  OAUTH_REGISTRATIONS_PER_MINUTE: wholeNumber("registrations a minute (0 turns the limit off)", 10),
  /** How long an invitation link stays valid. */
  INVITATION_TTL_HOURS: wholeNumber("hours", 168),
  /** Invitations are also mailed when set, like smtps://user:password@mail.example.com:465. */
  SMTP_URL: optionalUrl(["smtp:", "smtps:"]),
  SMTP_FROM: optionalString.transform((value) => value ?? "Switchboard <no-reply@localhost>"),
});

export type Env = z.infer<typeof envSchema>;

export class EnvError extends Error {
  constructor(readonly issues: string[]) {
    super(`Invalid environment configuration:\n${issues.map((issue) => `  - ${issue}`).join("\n")}`);
    this.name = "EnvError";
  }
}

/** Parses an environment; every bad value is named in one error so start-up stops with a clear message. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = envSchema.safeParse(source);
  if (result.success) {
    const pairs: [string, string | undefined, string | undefined][] = [
      ["AUTH_GITHUB", result.data.AUTH_GITHUB_ID, result.data.AUTH_GITHUB_SECRET],
      ["AUTH_OIDC", result.data.AUTH_OIDC_ID, result.data.AUTH_OIDC_SECRET],
    ];
    const issues = pairs
      .filter(([, id, secret]) => (id === undefined) !== (secret === undefined))
      .map(([prefix]) => `${prefix}_ID and ${prefix}_SECRET: set both or neither`);
    if (result.data.AUTH_OIDC_ID && !result.data.AUTH_OIDC_ISSUER) {
      issues.push("AUTH_OIDC_ISSUER: required when AUTH_OIDC_ID is set");
    }
    issues.push(...chatFileStoreIssues(result.data));
    if (issues.length > 0) throw new EnvError(issues);
    const demoServersSet = (source.MCP_DEMO_SERVERS ?? "").trim() !== "";
    return {
      ...result.data,
      MCP_DEMO_SERVERS: demoServersSet ? result.data.MCP_DEMO_SERVERS : result.data.NODE_ENV !== "production",
    };
  }
  throw new EnvError(
    result.error.issues.map((issue) => `${issue.path.join(".") || "environment"}: ${issue.message}`),
  );
}

/** The S3 file store is configured whole or not at all: each variable missing from a half is named. */
function chatFileStoreIssues(env: z.infer<typeof envSchema>): string[] {
  const parts = {
    CHAT_FILE_S3_URL: env.CHAT_FILE_S3_URL,
    CHAT_FILE_S3_ACCESS_KEY_ID: env.CHAT_FILE_S3_ACCESS_KEY_ID,
    CHAT_FILE_S3_SECRET_ACCESS_KEY: env.CHAT_FILE_S3_SECRET_ACCESS_KEY,
  };
  const set = Object.values(parts).some((value) => value !== undefined);
  if (!set) return [];
  return Object.entries(parts)
    .filter(([, value]) => value === undefined)
    .map(([name]) => `${name}: required when any of ${Object.keys(parts).join(", ")} is set`);
}

let cached: Env | undefined;

/** The process environment, parsed once. */
export function getEnv(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}
