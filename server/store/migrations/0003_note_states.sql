CREATE TABLE "note_states" (
	"organization_id" text NOT NULL,
	"note_id" text NOT NULL,
	"status" text NOT NULL,
	"source" text NOT NULL,
	"learned_at" timestamp with time zone NOT NULL,
	CONSTRAINT "note_states_organization_id_note_id_pk" PRIMARY KEY("organization_id","note_id")
);
--> statement-breakpoint
CREATE TABLE "note_views" (
	"organization_id" text NOT NULL,
	"user_id" text NOT NULL,
	"note_id" text NOT NULL,
	"fields" jsonb NOT NULL,
	"section_digests" jsonb NOT NULL,
	"note_updated_at" text,
	"seen_at" timestamp with time zone NOT NULL,
	CONSTRAINT "note_views_organization_id_user_id_note_id_pk" PRIMARY KEY("organization_id","user_id","note_id")
);
--> statement-breakpoint
CREATE INDEX "note_views_seen_at_idx" ON "note_views" USING btree ("seen_at");--> statement-breakpoint
CREATE INDEX "audit_trail_user_at_idx" ON "audit_trail" USING btree ("organization_id","user_id","at");