CREATE TYPE "public"."mcp_oauth_status" AS ENUM('connected', 'needs_reconnect');--> statement-breakpoint
ALTER TYPE "public"."mcp_auth" ADD VALUE 'oauth';--> statement-breakpoint
CREATE TABLE "mcp_oauth_credentials" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"integration_id" uuid NOT NULL,
	"user_id" uuid,
	"access_token_encrypted" text NOT NULL,
	"refresh_token_encrypted" text,
	"expires_at" timestamp with time zone,
	"scope" text,
	"status" "mcp_oauth_status" DEFAULT 'connected' NOT NULL,
	"last_error" text,
	"connected_by" uuid,
	"connected_at" timestamp with time zone DEFAULT now() NOT NULL,
	"refreshed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "mcp_oauth_flows" (
	"state" text PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"integration_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"personal" boolean NOT NULL,
	"code_verifier_encrypted" text NOT NULL,
	"redirect_url" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mcp_integrations" ADD COLUMN "oauth" jsonb;--> statement-breakpoint
ALTER TABLE "mcp_oauth_credentials" ADD CONSTRAINT "mcp_oauth_credentials_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mcp_oauth_credentials" ADD CONSTRAINT "mcp_oauth_credentials_integration_id_mcp_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."mcp_integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mcp_oauth_credentials" ADD CONSTRAINT "mcp_oauth_credentials_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mcp_oauth_credentials" ADD CONSTRAINT "mcp_oauth_credentials_connected_by_users_id_fk" FOREIGN KEY ("connected_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mcp_oauth_flows" ADD CONSTRAINT "mcp_oauth_flows_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mcp_oauth_flows" ADD CONSTRAINT "mcp_oauth_flows_integration_id_mcp_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."mcp_integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mcp_oauth_flows" ADD CONSTRAINT "mcp_oauth_flows_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "mcp_oauth_credentials_shared_unique" ON "mcp_oauth_credentials" USING btree ("integration_id") WHERE "mcp_oauth_credentials"."user_id" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "mcp_oauth_credentials_user_unique" ON "mcp_oauth_credentials" USING btree ("integration_id","user_id") WHERE "mcp_oauth_credentials"."user_id" is not null;--> statement-breakpoint
CREATE INDEX "mcp_oauth_flows_integration_idx" ON "mcp_oauth_flows" USING btree ("integration_id");