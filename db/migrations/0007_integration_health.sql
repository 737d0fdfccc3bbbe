CREATE TABLE "integration_health_checks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"integration_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"checked_at" timestamp with time zone DEFAULT now() NOT NULL,
	"status" text NOT NULL,
	"latency_ms" integer NOT NULL,
	"error" text
);
--> statement-breakpoint
ALTER TABLE "integration_health_checks" ADD CONSTRAINT "integration_health_checks_integration_id_mcp_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."mcp_integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_health_checks" ADD CONSTRAINT "integration_health_checks_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "integration_health_checks_integration_idx" ON "integration_health_checks" USING btree ("integration_id","checked_at");--> statement-breakpoint
CREATE INDEX "integration_health_checks_time_idx" ON "integration_health_checks" USING btree ("checked_at");