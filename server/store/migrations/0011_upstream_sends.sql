CREATE TABLE "upstream_sends" (
	"scope" text NOT NULL,
	"organization_id" text NOT NULL,
	"process" text NOT NULL,
	"sent_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "upstream_sends_scope_sent_at_idx" ON "upstream_sends" USING btree ("scope","sent_at");