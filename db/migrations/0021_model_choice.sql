ALTER TABLE "chat_messages" ADD COLUMN "metadata" jsonb;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "model" text;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "chat_models" jsonb DEFAULT '[]'::jsonb NOT NULL;