-- The request log (dashboard) filters by end user and shows how many memories were injected: both were only in the access log.
ALTER TABLE "usage_events" ADD COLUMN "end_user" text;--> statement-breakpoint
ALTER TABLE "usage_events" ADD COLUMN "memory_injected" integer;--> statement-breakpoint
CREATE INDEX "usage_events_org_end_user_created_idx" ON "usage_events" USING btree ("org_id","end_user","created_at");