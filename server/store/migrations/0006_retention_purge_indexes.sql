CREATE INDEX "appointment_states_scheduled_end_idx" ON "appointment_states" USING btree ("scheduled_end_date");--> statement-breakpoint
CREATE INDEX "audit_trail_at_idx" ON "audit_trail" USING btree ("at");--> statement-breakpoint
CREATE INDEX "created_tasks_created_at_idx" ON "created_tasks" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "note_drafts_updated_at_idx" ON "note_drafts" USING btree ("updated_at");--> statement-breakpoint
CREATE INDEX "note_states_learned_at_idx" ON "note_states" USING btree ("learned_at");--> statement-breakpoint
CREATE INDEX "standalone_sessions_revoked_at_idx" ON "standalone_sessions" USING btree ("revoked_at") WHERE "standalone_sessions"."revoked_at" is not null;--> statement-breakpoint
CREATE INDEX "webhook_inbox_processed_at_idx" ON "webhook_inbox" USING btree ("processed_at") WHERE "webhook_inbox"."processed_at" is not null;