import type { Prompt, Resource, Tool, ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  customType,
  doublePrecision,
  index,
  integer,
  json,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { tsvector } from "./tsvector";

export const roleEnum = pgEnum("role", ["owner", "admin", "member"]);

export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    email: text("email").notNull(),
    name: text("name").notNull(),
    passwordHash: text("password_hash"),
    isSuperadmin: boolean("is_superadmin").notNull().default(false),
    activeOrganizationId: uuid("active_organization_id"),
    disabledAt: timestamp("disabled_at", { withTimezone: true }),
    /** Carried in every session token; raising it ends all of the user's sessions (sign-out, disable, new password). */
    sessionVersion: integer("session_version").notNull().default(0),
    /** When the owner was last mailed that someone tried to register their address: at most one such mail a day. */
    registrationNoticeAt: timestamp("registration_notice_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex("users_email_unique").on(sql`lower(${table.email})`)],
);

export const organizations = pgTable("organizations", {
  id: uuid("id").primaryKey().defaultRandom(),
  slug: text("slug").notNull().unique(),
  name: text("name").notNull(),
  /** Keep tool calls' arguments and results (secrets redacted) in the usage records. Off by default. */
  recordToolPayloads: boolean("record_tool_payloads").notNull().default(false),
  /** Members may authorize MCP clients (Claude, ChatGPT…) by OAuth; off ends every grant of the organization. */
  oauthClientsEnabled: boolean("oauth_clients_enabled").notNull().default(true),
  /** Host names OAuth clients may send people back to (null: any); a client whose redirect is elsewhere is refused. */
  oauthRedirectHosts: jsonb("oauth_redirect_hosts").$type<string[]>(),
  /** Models of the configured endpoint that members may choose in a conversation, besides each agent's own. */
  chatModels: jsonb("chat_models").$type<string[]>().notNull().default([]),
  /** Models the admin marked as not taking images: an attached image reaches them as a note, not its bytes. */
  textOnlyModels: jsonb("text_only_models").$type<string[]>().notNull().default([]),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

export const memberships = pgTable(
  "memberships",
  {
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: roleEnum("role").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.organizationId, table.userId] }),
    index("memberships_user_idx").on(table.userId),
  ],
);

export type User = typeof users.$inferSelect;
export type Organization = typeof organizations.$inferSelect;
export type Membership = typeof memberships.$inferSelect;
export type Role = (typeof roleEnum.enumValues)[number];

/** A single-use link that lets someone join an organization with a role, registered or not. */
export const invitations = pgTable(
  "invitations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    /** Lowercased: the account that accepts must have this email. */
    email: text("email").notNull(),
    role: roleEnum("role").notNull(),
    /** SHA-256 of the random token in the link: the link itself is shown once and never stored. */
    tokenHash: text("token_hash").notNull().unique(),
    /** Null when an operator invited through the CLI, or the inviter's account is gone. */
    invitedBy: uuid("invited_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    acceptedAt: timestamp("accepted_at", { withTimezone: true }),
    acceptedBy: uuid("accepted_by").references(() => users.id, { onDelete: "set null" }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (table) => [index("invitations_org_idx").on(table.organizationId)],
);

export type Invitation = typeof invitations.$inferSelect;

export const mcpTransportEnum = pgEnum("mcp_transport", ["streamable-http", "sse", "stdio"]);
export const mcpAuthEnum = pgEnum("mcp_auth", ["none", "bearer", "headers", "oauth"]);
export const mcpStatusEnum = pgEnum("mcp_status", ["unknown", "connected", "failing"]);

export const mcpIntegrations = pgTable(
  "mcp_integrations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    slug: text("slug").notNull(),
    transport: mcpTransportEnum("transport").notNull(),
    url: text("url"),
    command: text("command"),
    args: jsonb("args").$type<string[]>().notNull().default([]),
    /** Environment for stdio servers; values encrypted like credentials. */
    envEncrypted: jsonb("env_encrypted").$type<Record<string, string>>().notNull().default({}),
    authType: mcpAuthEnum("auth_type").notNull().default("none"),
    /** For OAuth: who connects, scopes, a pre-registered client id and what discovery found; no secrets. */
    oauth: jsonb("oauth").$type<IntegrationOAuthSettings>(),
    /**
     * Bearer token or header values (for OAuth: the client secret and the dynamic registration), each AES-256-GCM
     * encrypted; never sent to the browser.
     */
    credentialsEncrypted: jsonb("credentials_encrypted")
      .$type<Record<string, string>>()
      .notNull()
      .default({}),
    enabled: boolean("enabled").notNull().default(true),
    presetKey: text("catalog_key"),
    timeoutMs: integer("timeout_ms").notNull().default(30_000),
    status: mcpStatusEnum("status").notNull().default("unknown"),
    lastError: text("last_error"),
    lastCheckedAt: timestamp("last_checked_at", { withTimezone: true }),
    lastLatencyMs: integer("last_latency_ms"),
    /**
     * How its server is doing from calls and checks (healthy, degraded, failing, recovering), why in plain words,
     * and since when: written by the instance that saw it change.
     */
    state: text("state").$type<"healthy" | "degraded" | "failing" | "recovering">(),
    stateCause: text("state_cause"),
    stateChangedAt: timestamp("state_changed_at", { withTimezone: true }),
    /**
     * The latest discovery (tools, resources, prompts), so listings never wait on a live server. `json`, not `jsonb`:
     * it keeps the key order of the input schemas as the server sent them.
     */
    discovered: json("discovered").$type<DiscoveredSnapshot>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("mcp_integrations_org_slug_unique").on(table.organizationId, table.slug),
    index("mcp_integrations_org_idx").on(table.organizationId),
  ],
);

/** A discovery's tools, resources and prompts, as the server listed them (the MCP SDK's types). */
export interface DiscoveredSnapshot {
  tools: Tool[];
  resources: Resource[];
  prompts: Prompt[];
}

export type McpIntegrationRow = typeof mcpIntegrations.$inferSelect;

export interface IntegrationOAuthSettings {
  /** "organization": connected once for everyone; "user": each user connects their own account. */
  credentials: "organization" | "user";
  /** Scopes to ask for when the server names none. */
  scope?: string;
  /** A client an admin registered with the provider; its secret is in the encrypted credentials. */
  clientId?: string;
  /** The protected-resource and authorization-server metadata found when connecting (the SDK's discovery state). */
  discovery?: Record<string, unknown>;
}

export const mcpOAuthStatusEnum = pgEnum("mcp_oauth_status", ["connected", "needs_reconnect"]);

/** OAuth tokens of an integration: the organization's (no user) or one user's own, encrypted. */
export const mcpOAuthCredentials = pgTable(
  "mcp_oauth_credentials",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    integrationId: uuid("integration_id")
      .notNull()
      .references(() => mcpIntegrations.id, { onDelete: "cascade" }),
    /** Null for the organization's shared connection. */
    userId: uuid("user_id").references(() => users.id, { onDelete: "cascade" }),
    accessTokenEncrypted: text("access_token_encrypted").notNull(),
    refreshTokenEncrypted: text("refresh_token_encrypted"),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    scope: text("scope"),
    status: mcpOAuthStatusEnum("status").notNull().default("connected"),
    lastError: text("last_error"),
    connectedBy: uuid("connected_by").references(() => users.id, { onDelete: "set null" }),
    connectedAt: timestamp("connected_at", { withTimezone: true }).notNull().defaultNow(),
    refreshedAt: timestamp("refreshed_at", { withTimezone: true }),
  },
  (table) => [
    uniqueIndex("mcp_oauth_credentials_shared_unique")
      .on(table.integrationId)
      .where(sql`${table.userId} is null`),
    uniqueIndex("mcp_oauth_credentials_user_unique")
      .on(table.integrationId, table.userId)
      .where(sql`${table.userId} is not null`),
  ],
);

/** An authorization in progress: the browser is at the provider's consent page; the state comes back with it. */
export const mcpOAuthFlows = pgTable(
  "mcp_oauth_flows",
  {
    state: text("state").primaryKey(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    integrationId: uuid("integration_id")
      .notNull()
      .references(() => mcpIntegrations.id, { onDelete: "cascade" }),
    /** Who started it; only they may finish it. */
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Connecting the user's own account rather than the organization's. */
    personal: boolean("personal").notNull(),
    codeVerifierEncrypted: text("code_verifier_encrypted").notNull(),
    redirectUrl: text("redirect_url").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("mcp_oauth_flows_integration_idx").on(table.integrationId)],
);

export const apiKeys = pgTable(
  "api_keys",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** The visible start of the key, shown in lists so people can tell keys apart. */
    prefix: text("prefix").notNull(),
    /** SHA-256 of the whole key: keys are long random strings, so a fast hash is safe and lookups stay cheap. */
    keyHash: text("key_hash").notNull().unique(),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    /** The gateway lists only its meta-tools (find_tools, call_tool) to this key, keeping clients' context small. */
    metaToolsOnly: boolean("meta_tools_only").notNull().default(false),
    /** After this instant the key is refused like an unknown one; null: it never expires. */
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    /** What the key may list and call; null: everything of its organization, as keys had before scopes. */
    scope: jsonb("scope").$type<ApiKeyScope>(),
  },
  (table) => [index("api_keys_org_idx").on(table.organizationId)],
);

/**
 * A key's least privilege. Each list narrows (null: all, including ones added later; empty: none); a key with
 * no integrations, no capabilities and the built-ins is read-only knowledge.
 */
export interface ApiKeyScope {
  /** Integrations whose tools, resources and prompts the key reaches. */
  integrationIds: string[] | null;
  /** Capabilities the key may list and call. */
  capabilityIds: string[] | null;
  /** The built-in tools, which only read the organization's knowledge (node_knowledge_retriever, knowledge_search). */
  builtins: boolean;
}

export const knowledgeNodes = pgTable(
  "knowledge_nodes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    content: text("content").notNull(),
    metadata: jsonb("metadata").$type<Record<string, unknown>>().notNull().default({}),
    searchVector: tsvector("search_vector").generatedAlwaysAs(
      sql`setweight(to_tsvector('english', coalesce(name, '')), 'A') || setweight(to_tsvector('english', coalesce(content, '')), 'B')`,
    ),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("knowledge_nodes_org_name_unique").on(table.organizationId, table.name),
    index("knowledge_nodes_search_idx").using("gin", table.searchVector),
  ],
);

export type ApiKey = typeof apiKeys.$inferSelect;
export type KnowledgeNode = typeof knowledgeNodes.$inferSelect;

/** Requests per API key per minute, counted in the shared database so every app instance enforces one limit. */
export const rateLimitCounters = pgTable(
  "rate_limit_counters",
  {
    bucket: text("bucket").notNull(),
    windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
    count: integer("count").notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.bucket, table.windowStart] })],
);

/**
 * Failed sign-in attempts per account (`email:<address>`) or per client address (`ip:<address>`), and the lock
 * they earned: shared by every instance. See lib/auth/sign-in-throttle.ts.
 */
export const signInThrottles = pgTable("sign_in_throttles", {
  key: text("key").primaryKey(),
  failures: integer("failures").notNull().default(0),
  windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
  lockCount: integer("lock_count").notNull().default(0),
  lockedUntil: timestamp("locked_until", { withTimezone: true }),
});

export const toolApprovalEnum = pgEnum("tool_approval", ["always", "risky", "never"]);

export const agents = pgTable(
  "agents",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    instructions: text("instructions").notNull().default(""),
    /** Null: the CHAT_MODEL default. */
    model: text("model"),
    /** Null: every enabled integration of the organization (the default agent). */
    mcpIntegrationIds: jsonb("mcp_integration_ids").$type<string[] | null>(),
    /** Null: every capability of the organization, including ones added later. */
    capabilityIds: jsonb("capability_ids").$type<string[] | null>(),
    builtinTools: jsonb("builtin_tools")
      .$type<string[]>()
      .notNull()
      .default(["node_knowledge_retriever", "knowledge_search"]),
    isDefault: boolean("is_default").notNull().default(false),
    /**
     * Which tool calls wait for the user to allow them (once or for the conversation) or deny them: every call,
     * calls of tools not marked read-only, or none.
     */
    toolApproval: toolApprovalEnum("tool_approval").notNull().default("risky"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("agents_org_idx").on(table.organizationId)],
);

export const conversations = pgTable(
  "conversations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    agentId: uuid("agent_id").references(() => agents.id, { onDelete: "set null" }),
    title: text("title").notNull().default("New conversation"),
    /** What conversation start discovered: which integrations answered, which failed and why. */
    discovery: jsonb("discovery").$type<ConversationDiscovery>(),
    /** Integrations the user switched off for this conversation. */
    disabledIntegrationIds: jsonb("disabled_integration_ids").$type<string[]>().notNull().default([]),
    /** Single tools (by the name the model sees) the user switched off for this conversation. */
    disabledTools: jsonb("disabled_tools").$type<string[]>().notNull().default([]),
    /** Tools the user allowed for the rest of this conversation when the agent asks for approval. */
    approvedTools: jsonb("approved_tools").$type<string[]>().notNull().default([]),
    /** When the user pinned it to the top of their conversation list; null when not pinned. */
    pinnedAt: timestamp("pinned_at", { withTimezone: true }),
    /** The model the user chose for this conversation; null: the agent's. */
    model: text("model"),
    /** The last message of the branch shown (its path to the first message is the history); null: the newest. */
    shownMessageId: text("shown_message_id"),
    /** The turn running now (its answer is still coming), which a reloaded page re-attaches to; null when none. */
    activeTurnId: uuid("active_turn_id"),
    /** When that turn last said it still runs: one not heard of for long ended with the instance that ran it. */
    activeTurnSeenAt: timestamp("active_turn_seen_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("conversations_org_user_idx").on(table.organizationId, table.userId, table.updatedAt)],
);

export const chatMessages = pgTable(
  "chat_messages",
  {
    /** The UI message id: unique within its conversation (ids come from clients too). */
    id: text("id").notNull(),
    conversationId: uuid("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    role: text("role").notNull(),
    /** The message it follows in its branch; null for a first message. Siblings are versions of each other. */
    parentId: text("parent_id"),
    /** The AI SDK UI message parts, as the client renders them. */
    parts: jsonb("parts").$type<unknown[]>().notNull(),
    /** The UI message's metadata: for an answer, the model that gave it and the tokens it reported. */
    metadata: jsonb("metadata").$type<Record<string, unknown>>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.conversationId, table.id] }),
    index("chat_messages_conversation_idx").on(table.conversationId, table.createdAt),
  ],
);

/** Bytes as PostgreSQL's `bytea`, read back as a Buffer by both drivers. */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => Buffer.from(value),
});

/** A file a person attached in a conversation: its bytes, kept for its owner in its organization. */
export const chatFiles = pgTable(
  "chat_files",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    conversationId: uuid("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** The type read from the bytes, never the one the browser claimed. */
    mediaType: text("media_type").notNull(),
    size: integer("size").notNull(),
    /** The bytes, when the database stores them; null when they are in the S3-compatible file store. */
    content: bytea("content"),
    /** What the model reads of a text file or PDF, extracted once at upload and cut to the budget; null for images. */
    text: text("text"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("chat_files_conversation_idx").on(table.organizationId, table.conversationId)],
);

/**
 * Objects of the S3-compatible file store whose `chat_files` row is gone, however it went (the orphan sweep, or a
 * cascade from its conversation, user or organization): queued by a trigger on `chat_files`, deleted from the
 * store and then from here (`lib/chat/file-store/deleted-objects.ts`).
 */
export const chatFileDeletedObjects = pgTable(
  "chat_file_deleted_objects",
  {
    organizationId: uuid("organization_id").notNull(),
    fileId: uuid("file_id").notNull(),
    deletedAt: timestamp("deleted_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.organizationId, table.fileId] })],
);

/**
 * What a running chat turn has streamed so far, as the event-stream text the browser reads, in order: any instance
 * replays it to a page that reloaded, then follows it. Kept until the conversation's next turn starts.
 */
export const chatTurnChunks = pgTable(
  "chat_turn_chunks",
  {
    turnId: uuid("turn_id").notNull(),
    seq: integer("seq").notNull(),
    conversationId: uuid("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    text: text("text").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.turnId, table.seq] }),
    index("chat_turn_chunks_conversation_idx").on(table.conversationId),
  ],
);

/** An organization's own tool: sandboxed code listed as `mcp__<namespace>__<action>`. */
export const capabilities = pgTable(
  "capabilities",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    namespace: text("namespace").notNull(),
    action: text("action").notNull(),
    description: text("description").notNull().default(""),
    /** JSON Schema of the arguments; the tool's inputSchema. `json`: keeps the properties in the order written. */
    parametersSchema: json("parameters_schema")
      .$type<Record<string, unknown>>()
      .notNull()
      .default({ type: "object", properties: {} }),
    /** JSON Schema its structured result must match; null: none declared. */
    outputSchema: json("output_schema").$type<Record<string, unknown>>(),
    /** The MCP hints it declares (read-only, destructive, idempotent, open world); null: none. */
    annotations: json("annotations").$type<ToolAnnotations>(),
    code: text("code").notNull(),
    usageCount: integer("usage_count").notNull().default(0),
    successCount: integer("success_count").notNull().default(0),
    /** Sum of all calls' durations; the average latency is this over usageCount. */
    totalLatencyMs: doublePrecision("total_latency_ms").notNull().default(0),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("capabilities_org_name_unique").on(table.organizationId, table.namespace, table.action),
  ],
);

/** One tool call from any surface, recorded once by the catalog; arguments and results are not kept. */
export const usageRecords = pgTable(
  "usage_records",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    occurredAt: timestamp("occurred_at", { withTimezone: true }).notNull().defaultNow(),
    /** Who: a user or an API key (no foreign keys: the record outlives them). */
    userId: uuid("user_id"),
    apiKeyId: uuid("api_key_id"),
    /** The OAuth client a user's call came through (Claude, ChatGPT…), when it came with an access token. */
    oauthClientId: uuid("oauth_client_id"),
    surface: text("surface")
      .$type<"chat" | "rest" | "gateway" | "capability" | "runner" | "test-run">()
      .notNull(),
    tool: text("tool").notNull(),
    source: text("source").$type<"builtin" | "integration" | "capability">(),
    integrationId: uuid("integration_id"),
    capabilityId: uuid("capability_id"),
    outcome: text("outcome").$type<"ok" | "tool_error" | "failed">().notNull(),
    latencyMs: integer("latency_ms").notNull(),
    errorCode: text("error_code"),
    /** Only when the organization keeps payloads: arguments and result, secrets redacted, cut to a size. */
    arguments: jsonb("arguments"),
    result: jsonb("result"),
  },
  (table) => [
    index("usage_records_org_time_idx").on(table.organizationId, table.occurredAt),
    index("usage_records_org_tool_time_idx").on(table.organizationId, table.tool, table.occurredAt),
  ],
);

/** One background health check of an integration: its status history. */
export const integrationHealthChecks = pgTable(
  "integration_health_checks",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    integrationId: uuid("integration_id")
      .notNull()
      .references(() => mcpIntegrations.id, { onDelete: "cascade" }),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    checkedAt: timestamp("checked_at", { withTimezone: true }).notNull().defaultNow(),
    status: text("status").$type<"up" | "degraded" | "down">().notNull(),
    latencyMs: integer("latency_ms").notNull(),
    error: text("error"),
  },
  (table) => [
    index("integration_health_checks_integration_idx").on(table.integrationId, table.checkedAt),
    index("integration_health_checks_time_idx").on(table.checkedAt),
  ],
);

/** Who changed what and when, with before and after values; secrets appear only as "changed". */
export const auditEvents = pgTable(
  "audit_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    occurredAt: timestamp("occurred_at", { withTimezone: true }).notNull().defaultNow(),
    actorUserId: uuid("actor_user_id"),
    actorApiKeyId: uuid("actor_api_key_id"),
    /** `<kind>.<verb>`, such as `agent.update` or `api_key.revoke`. */
    action: text("action").notNull(),
    targetType: text("target_type").notNull(),
    targetId: text("target_id"),
    targetName: text("target_name"),
    before: jsonb("before").$type<Record<string, unknown>>(),
    after: jsonb("after").$type<Record<string, unknown>>(),
  },
  (table) => [index("audit_events_org_time_idx").on(table.organizationId, table.occurredAt)],
);

export interface ConversationDiscovery {
  discoveredAt: string;
  /**
   * Per integration: answered (late: after the start budget, so from a later turn on), slow but standing in
   * with its last discovery, slow with nothing known yet, or failed.
   */
  integrations: (
    | {
        integrationId: string;
        name: string;
        status: "connected" | "stale";
        late?: boolean;
        lastCheckedAt?: string | null;
        toolCount: number;
        resourceCount: number;
        promptCount: number;
      }
    | { integrationId: string; name: string; status: "pending" }
    | {
        integrationId: string;
        name: string;
        status: "failed";
        errorType: string;
        message: string;
        late?: boolean;
      }
  )[];
}

export type Agent = typeof agents.$inferSelect;
export type NewAgent = typeof agents.$inferInsert;
export type Conversation = typeof conversations.$inferSelect;
export type Capability = typeof capabilities.$inferSelect;
export type UsageRecord = typeof usageRecords.$inferSelect;
export type AuditEvent = typeof auditEvents.$inferSelect;
export type IntegrationHealthCheck = typeof integrationHealthChecks.$inferSelect;

/**
 * An MCP client's session with the gateway (`Mcp-Session-Id`), kept here so any instance can answer its requests.
 * It belongs to the API key or the OAuth grant that opened it and ends with it.
 */
export const mcpGatewaySessions = pgTable(
  "mcp_gateway_sessions",
  {
    id: text("id").primaryKey(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    apiKeyId: uuid("api_key_id").references(() => apiKeys.id, { onDelete: "cascade" }),
    oauthGrantId: uuid("oauth_grant_id").references(() => oauthGrants.id, { onDelete: "cascade" }),
    /** Which endpoint it was opened on: "gateway", or the slug of the integration passed through. */
    endpoint: text("endpoint").notNull(),
    protocolVersion: text("protocol_version").notNull(),
    /** What the client declared at initialization (elicitation, sampling, roots…). */
    clientCapabilities: jsonb("client_capabilities").$type<Record<string, unknown>>().notNull(),
    /** The lowest level of log messages the client asked for; null: it never asked, so none are relayed. */
    logLevel: text("log_level"),
    /** Resource URIs (as the client knows them) whose updates the client subscribed to. */
    subscriptions: jsonb("subscriptions").$type<string[]>().notNull().default([]),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (table) => [
    index("mcp_gateway_sessions_org_idx").on(table.organizationId),
    index("mcp_gateway_sessions_expiry_idx").on(table.expiresAt),
  ],
);

/**
 * Messages for a session's client, each on one SSE stream (a POST's answer, or the session's own GET stream), kept
 * a short while so a client reconnecting with Last-Event-ID, on any instance, gets what it missed.
 */
export const mcpSessionEvents = pgTable(
  "mcp_session_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    sessionId: text("session_id")
      .notNull()
      .references(() => mcpGatewaySessions.id, { onDelete: "cascade" }),
    streamId: text("stream_id").notNull(),
    /**
     * Its place in its stream: counted by the instance that answers a request (which keeps a stream's events in
     * memory until the client loses it), from the table's sequence on a session's own stream.
     */
    seq: bigint("seq", { mode: "number" }).notNull().default(sql`nextval('mcp_session_events_id_seq')`),
    message: jsonb("message").$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("mcp_session_events_stream_idx").on(table.sessionId, table.streamId, table.seq)],
);

export const oauthClientKindEnum = pgEnum("oauth_client_kind", ["dynamic", "metadata_document"]);

/**
 * An MCP client (Claude, ChatGPT, VS Code…) known to Switchboard's authorization server: registered dynamically
 * (RFC 7591), or named by its Client ID Metadata Document's URL, whose fetched document is kept here a while.
 */
export const oauthClients = pgTable(
  "oauth_clients",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** The `client_id` the client sends: one we issued, or the https URL of its metadata document. */
    clientId: text("client_id").notNull().unique(),
    kind: oauthClientKindEnum("kind").notNull(),
    /** SHA-256 of the secret we issued, for clients that authenticate at the token endpoint; null: a public client. */
    secretHash: text("secret_hash"),
    /** The client's registered metadata (RFC 7591 fields: client_name, redirect_uris, logo_uri…), as validated. */
    metadata: jsonb("metadata").$type<OAuthClientRecordMetadata>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** A metadata document is fetched again after this (its cache lifetime); null for registered clients. */
    refreshAt: timestamp("refresh_at", { withTimezone: true }),
  },
  (table) => [index("oauth_clients_kind_created_idx").on(table.kind, table.createdAt)],
);

/** What Switchboard keeps of a client's metadata. */
export interface OAuthClientRecordMetadata {
  client_name?: string;
  client_uri?: string;
  logo_uri?: string;
  redirect_uris: string[];
  grant_types?: string[];
  token_endpoint_auth_method: "none" | "client_secret_basic" | "client_secret_post";
  scope?: string;
  software_id?: string;
  software_version?: string;
}

export type OAuthClientRow = typeof oauthClients.$inferSelect;

/**
 * A person's authorization of one client for one organization and one MCP endpoint (RFC 8707 resource), with what
 * it may use (an API key's scope). Its codes, tokens and sessions belong to it: revoking it deletes it, and them
 * with it, on every instance.
 */
export const oauthGrants = pgTable(
  "oauth_grants",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    clientId: uuid("client_id")
      .notNull()
      .references(() => oauthClients.id, { onDelete: "cascade" }),
    /** The endpoint the tokens are for: "gateway", or "integrations/<slug>" for one integration passed through. */
    resource: text("resource").notNull(),
    /** What it may list and call, as an API key's scope; null: everything of the organization. */
    scope: jsonb("scope").$type<ApiKeyScope>(),
    /** The gateway lists only find_tools and call_tool to this client. */
    metaToolsOnly: boolean("meta_tools_only").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
  },
  (table) => [
    // One grant per person, client, organization and endpoint: authorizing again updates it.
    uniqueIndex("oauth_grants_unique").on(table.userId, table.clientId, table.organizationId, table.resource),
    index("oauth_grants_org_idx").on(table.organizationId),
    index("oauth_grants_client_idx").on(table.clientId),
  ],
);

export type OAuthGrantRow = typeof oauthGrants.$inferSelect;

/** An authorization request checked and waiting for the person's consent (about ten minutes at most). */
export const oauthAuthorizationRequests = pgTable(
  "oauth_authorization_requests",
  {
    id: text("id").primaryKey(),
    clientId: uuid("client_id")
      .notNull()
      .references(() => oauthClients.id, { onDelete: "cascade" }),
    redirectUri: text("redirect_uri").notNull(),
    codeChallenge: text("code_challenge").notNull(),
    state: text("state"),
    resource: text("resource").notNull(),
    /** The scope the client asked for, as it sent it. */
    scope: text("scope"),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (table) => [index("oauth_authorization_requests_expiry_idx").on(table.expiresAt)],
);

/** An authorization code: single use, bound to its client, redirect URI, PKCE challenge and resource. */
export const oauthAuthorizationCodes = pgTable(
  "oauth_authorization_codes",
  {
    /** SHA-256 of the code; the code itself is only in the redirect. */
    codeHash: text("code_hash").primaryKey(),
    grantId: uuid("grant_id")
      .notNull()
      .references(() => oauthGrants.id, { onDelete: "cascade" }),
    redirectUri: text("redirect_uri").notNull(),
    codeChallenge: text("code_challenge").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (table) => [index("oauth_authorization_codes_grant_idx").on(table.grantId)],
);

export const oauthTokenKindEnum = pgEnum("oauth_token_kind", ["access", "refresh"]);

/** Access and refresh tokens, opaque and stored as SHA-256 hashes like API keys. */
export const oauthTokens = pgTable(
  "oauth_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    grantId: uuid("grant_id")
      .notNull()
      .references(() => oauthGrants.id, { onDelete: "cascade" }),
    kind: oauthTokenKindEnum("kind").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    /** A refresh token is used once: a second use is a replay, and ends the grant. */
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (table) => [
    index("oauth_tokens_grant_idx").on(table.grantId),
    index("oauth_tokens_expiry_idx").on(table.expiresAt),
  ],
);
