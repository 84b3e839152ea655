CREATE TABLE "slot_holds" (
	"organization_id" text NOT NULL,
	"hold_id" text NOT NULL,
	"user_id" text NOT NULL,
	"patient_id" text,
	"provider_id" text NOT NULL,
	"facility_id" text NOT NULL,
	"starts_at" text NOT NULL,
	"ends_at" text NOT NULL,
	"appointment_type_id" text NOT NULL,
	"slot_length_minutes" integer NOT NULL,
	"is_new_patient" boolean NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"held_at" timestamp with time zone NOT NULL,
	CONSTRAINT "slot_holds_organization_id_hold_id_pk" PRIMARY KEY("organization_id","hold_id")
);
--> statement-breakpoint
CREATE INDEX "slot_holds_user_idx" ON "slot_holds" USING btree ("organization_id","user_id","expires_at");--> statement-breakpoint
CREATE INDEX "slot_holds_expires_at_idx" ON "slot_holds" USING btree ("expires_at");