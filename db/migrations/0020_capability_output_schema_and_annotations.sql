ALTER TABLE "capabilities" ADD COLUMN "output_schema" json;--> statement-breakpoint
ALTER TABLE "capabilities" ADD COLUMN "annotations" json;