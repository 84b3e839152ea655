CREATE TABLE "waitlist_entries" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"patient_id" text NOT NULL,
	"patient_key" text NOT NULL,
	"patient_name" text,
	"preferences" jsonb NOT NULL,
	"start_date" text NOT NULL,
	"end_date" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"end_reason" text
);
--> statement-breakpoint
CREATE TABLE "waitlist_offers" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"freed_key" text NOT NULL,
	"appointment_id" text NOT NULL,
	"facility_id" text NOT NULL,
	"slot_starts_at" timestamp with time zone NOT NULL,
	"freed_at" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"claimed_until" timestamp with time zone,
	"provider_id" text,
	"starts_at" text,
	"ends_at" text,
	"appointment_type_id" text,
	"slot_length_minutes" integer,
	"is_new_patient" boolean,
	"matches" jsonb,
	"taken_by" text,
	"taken_entry_id" text,
	"taken_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "waitlist_entries_waiting_idx" ON "waitlist_entries" USING btree ("organization_id","created_at") WHERE "waitlist_entries"."ended_at" is null;--> statement-breakpoint
CREATE INDEX "waitlist_entries_patient_idx" ON "waitlist_entries" USING btree ("organization_id","patient_key") WHERE "waitlist_entries"."ended_at" is null;--> statement-breakpoint
CREATE INDEX "waitlist_entries_ended_at_idx" ON "waitlist_entries" USING btree ("ended_at") WHERE "waitlist_entries"."ended_at" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "waitlist_offers_freed_key_idx" ON "waitlist_offers" USING btree ("organization_id","freed_key");--> statement-breakpoint
CREATE INDEX "waitlist_offers_matching_idx" ON "waitlist_offers" USING btree ("claimed_until") WHERE "waitlist_offers"."status" = 'matching';--> statement-breakpoint
CREATE INDEX "waitlist_offers_open_idx" ON "waitlist_offers" USING btree ("organization_id","slot_starts_at") WHERE "waitlist_offers"."status" = 'offered';--> statement-breakpoint
CREATE INDEX "waitlist_offers_slot_starts_at_idx" ON "waitlist_offers" USING btree ("slot_starts_at");