ALTER TABLE "organizations" ADD COLUMN "record_tool_payloads" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "usage_records" ADD COLUMN "arguments" jsonb;--> statement-breakpoint
ALTER TABLE "usage_records" ADD COLUMN "result" jsonb;