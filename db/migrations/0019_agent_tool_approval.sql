CREATE TYPE "public"."tool_approval" AS ENUM('always', 'risky', 'never');--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "tool_approval" "tool_approval" DEFAULT 'risky' NOT NULL;--> statement-breakpoint
UPDATE "agents" SET "tool_approval" = CASE WHEN "require_tool_approval" THEN 'always'::"tool_approval" ELSE 'never'::"tool_approval" END;--> statement-breakpoint
ALTER TABLE "agents" DROP COLUMN "require_tool_approval";