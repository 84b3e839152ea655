CREATE TABLE "write_intents" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"user_id" text NOT NULL,
	"kind" text NOT NULL,
	"subject_id" text NOT NULL,
	"request" jsonb NOT NULL,
	"outcome" text NOT NULL,
	"result_id" text,
	"created_at" timestamp with time zone NOT NULL,
	"settled_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "write_intents_subject_idx" ON "write_intents" USING btree ("organization_id","kind","subject_id","created_at");--> statement-breakpoint
CREATE INDEX "write_intents_user_idx" ON "write_intents" USING btree ("organization_id","user_id","kind","outcome");--> statement-breakpoint
CREATE INDEX "write_intents_created_at_idx" ON "write_intents" USING btree ("created_at");