CREATE TABLE "chat_turn_chunks" (
	"turn_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"conversation_id" uuid NOT NULL,
	"text" text NOT NULL,
	CONSTRAINT "chat_turn_chunks_turn_id_seq_pk" PRIMARY KEY("turn_id","seq")
);
--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "active_turn_id" uuid;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "active_turn_seen_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "chat_turn_chunks" ADD CONSTRAINT "chat_turn_chunks_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chat_turn_chunks_conversation_idx" ON "chat_turn_chunks" USING btree ("conversation_id");