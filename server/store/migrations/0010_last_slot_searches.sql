CREATE TABLE "last_slot_searches" (
	"organization_id" text NOT NULL,
	"user_id" text NOT NULL,
	"search" jsonb NOT NULL,
	"saved_at" timestamp with time zone NOT NULL,
	CONSTRAINT "last_slot_searches_organization_id_user_id_pk" PRIMARY KEY("organization_id","user_id")
);
--> statement-breakpoint
CREATE INDEX "last_slot_searches_saved_at_idx" ON "last_slot_searches" USING btree ("saved_at");