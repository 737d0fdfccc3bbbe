ALTER TABLE "mcp_integrations" ADD COLUMN "state" text;--> statement-breakpoint
ALTER TABLE "mcp_integrations" ADD COLUMN "state_cause" text;--> statement-breakpoint
ALTER TABLE "mcp_integrations" ADD COLUMN "state_changed_at" timestamp with time zone;