CREATE TABLE "mcp_gateway_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"api_key_id" uuid NOT NULL,
	"endpoint" text NOT NULL,
	"protocol_version" text NOT NULL,
	"client_capabilities" jsonb NOT NULL,
	"log_level" text,
	"subscriptions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mcp_session_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"session_id" text NOT NULL,
	"stream_id" text NOT NULL,
	"seq" bigint DEFAULT nextval('mcp_session_events_id_seq') NOT NULL,
	"message" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mcp_gateway_sessions" ADD CONSTRAINT "mcp_gateway_sessions_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mcp_gateway_sessions" ADD CONSTRAINT "mcp_gateway_sessions_api_key_id_api_keys_id_fk" FOREIGN KEY ("api_key_id") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mcp_session_events" ADD CONSTRAINT "mcp_session_events_session_id_mcp_gateway_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."mcp_gateway_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mcp_gateway_sessions_org_idx" ON "mcp_gateway_sessions" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "mcp_gateway_sessions_expiry_idx" ON "mcp_gateway_sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "mcp_session_events_stream_idx" ON "mcp_session_events" USING btree ("session_id","stream_id","seq");