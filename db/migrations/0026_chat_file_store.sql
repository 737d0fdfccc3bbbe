CREATE TABLE "chat_file_deleted_objects" (
	"organization_id" uuid NOT NULL,
	"file_id" uuid NOT NULL,
	"deleted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chat_file_deleted_objects_organization_id_file_id_pk" PRIMARY KEY("organization_id","file_id")
);
--> statement-breakpoint
ALTER TABLE "chat_files" ALTER COLUMN "content" DROP NOT NULL;--> statement-breakpoint
-- Whatever deletes a file's row (the orphan sweep, or a cascade from its conversation, user or organization), the
-- object holding its bytes in an S3-compatible store is queued for deletion; the app then deletes it there.
CREATE FUNCTION "chat_files_queue_deleted_object"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO "chat_file_deleted_objects" ("organization_id", "file_id")
	VALUES (OLD."organization_id", OLD."id")
	ON CONFLICT DO NOTHING;
	RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "chat_files_queue_deleted_object" AFTER DELETE ON "chat_files"
	FOR EACH ROW WHEN (OLD."content" IS NULL) EXECUTE FUNCTION "chat_files_queue_deleted_object"();
