ALTER TABLE "chat_messages" ADD COLUMN "parent_id" text;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "shown_message_id" text;--> statement-breakpoint
-- Stored conversations were one line: each message follows the one stored before it.
UPDATE "chat_messages" AS "m" SET "parent_id" = "p"."prev" FROM (
  SELECT "conversation_id", "id", lag("id") OVER (PARTITION BY "conversation_id" ORDER BY "created_at", "id") AS "prev"
  FROM "chat_messages"
) AS "p" WHERE "m"."conversation_id" = "p"."conversation_id" AND "m"."id" = "p"."id";
