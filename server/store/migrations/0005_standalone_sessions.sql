CREATE TABLE "standalone_sessions" (
	"secret_hash" text PRIMARY KEY NOT NULL,
	"session_id" text NOT NULL,
	"user_id" text NOT NULL,
	"profile" jsonb NOT NULL,
	"selected_organization_id" text,
	"sealed_access_token" text,
	"user_agent" text,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"verified_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "standalone_sessions_session_id_unique" UNIQUE("session_id")
);
--> statement-breakpoint
CREATE INDEX "standalone_sessions_user_idx" ON "standalone_sessions" USING btree ("user_id","expires_at");--> statement-breakpoint
CREATE INDEX "standalone_sessions_expires_at_idx" ON "standalone_sessions" USING btree ("expires_at");