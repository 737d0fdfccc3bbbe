CREATE TYPE "public"."mcp_auth" AS ENUM('none', 'bearer', 'headers');--> statement-breakpoint
CREATE TYPE "public"."mcp_status" AS ENUM('unknown', 'connected', 'failing');--> statement-breakpoint
CREATE TYPE "public"."mcp_transport" AS ENUM('streamable-http', 'sse', 'stdio');--> statement-breakpoint
CREATE TABLE "mcp_integrations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"transport" "mcp_transport" NOT NULL,
	"url" text,
	"command" text,
	"args" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"env_encrypted" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"auth_type" "mcp_auth" DEFAULT 'none' NOT NULL,
	"credentials_encrypted" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"catalog_key" text,
	"timeout_ms" integer DEFAULT 30000 NOT NULL,
	"status" "mcp_status" DEFAULT 'unknown' NOT NULL,
	"last_error" text,
	"last_checked_at" timestamp with time zone,
	"last_latency_ms" integer,
	"discovered" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mcp_integrations" ADD CONSTRAINT "mcp_integrations_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "mcp_integrations_org_slug_unique" ON "mcp_integrations" USING btree ("organization_id","slug");--> statement-breakpoint
CREATE INDEX "mcp_integrations_org_idx" ON "mcp_integrations" USING btree ("organization_id");