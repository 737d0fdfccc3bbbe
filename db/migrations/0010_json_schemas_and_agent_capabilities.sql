ALTER TABLE "capabilities" ALTER COLUMN "parameters_schema" SET DATA TYPE json USING "parameters_schema"::json;--> statement-breakpoint
ALTER TABLE "capabilities" ALTER COLUMN "parameters_schema" SET DEFAULT '{"type":"object","properties":{}}'::json;--> statement-breakpoint
ALTER TABLE "mcp_integrations" ALTER COLUMN "discovered" SET DATA TYPE json USING "discovered"::json;--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "capability_ids" jsonb;