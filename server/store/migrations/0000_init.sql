CREATE TABLE "appointment_states" (
	"organization_id" text NOT NULL,
	"appointment_id" text NOT NULL,
	"status" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"facility_id" text NOT NULL,
	"scheduled_start_date" text NOT NULL,
	"scheduled_end_date" text NOT NULL,
	CONSTRAINT "appointment_states_organization_id_appointment_id_pk" PRIMARY KEY("organization_id","appointment_id")
);
--> statement-breakpoint
CREATE TABLE "audit_trail" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "audit_trail_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"at" timestamp with time zone NOT NULL,
	"organization_id" text NOT NULL,
	"user_id" text NOT NULL,
	"action" text NOT NULL,
	"resource_type" text NOT NULL,
	"resource_id" text NOT NULL,
	"trace_id" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "created_tasks" (
	"organization_id" text NOT NULL,
	"note_id" text NOT NULL,
	"task_id" text NOT NULL,
	"created_by" text NOT NULL,
	"task" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "created_tasks_organization_id_task_id_pk" PRIMARY KEY("organization_id","task_id")
);
--> statement-breakpoint
CREATE TABLE "installations" (
	"organization_id" text PRIMARY KEY NOT NULL,
	"status" text NOT NULL,
	"granted_permissions" jsonb NOT NULL,
	"settings" jsonb NOT NULL,
	"installed_at" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "note_drafts" (
	"organization_id" text NOT NULL,
	"user_id" text NOT NULL,
	"note_id" text NOT NULL,
	"fields" jsonb NOT NULL,
	"baseline" jsonb NOT NULL,
	"note_version" integer,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "note_drafts_organization_id_user_id_note_id_pk" PRIMARY KEY("organization_id","user_id","note_id")
);
--> statement-breakpoint
CREATE TABLE "used_token_ids" (
	"jti" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_inbox" (
	"hook_id" text PRIMARY KEY NOT NULL,
	"event_type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"processed_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text
);
--> statement-breakpoint
CREATE INDEX "audit_trail_organization_at_idx" ON "audit_trail" USING btree ("organization_id","at");--> statement-breakpoint
CREATE INDEX "created_tasks_note_idx" ON "created_tasks" USING btree ("organization_id","note_id","created_at");--> statement-breakpoint
CREATE INDEX "used_token_ids_expires_at_idx" ON "used_token_ids" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "webhook_inbox_unprocessed_idx" ON "webhook_inbox" USING btree ("received_at","hook_id") WHERE "webhook_inbox"."processed_at" is null;