-- Memories written before this migration are verbatim transcripts (user messages and the assistant's
-- answers) shared by the whole organisation; the new contract stores end users' stated facts in their
-- own scope and cannot attribute the old rows to anyone, so they are removed.
DELETE FROM "memories";--> statement-breakpoint
DROP INDEX "memories_org_conversation_created_idx";--> statement-breakpoint
ALTER TABLE "memories" ADD COLUMN "subject" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "memories" ADD COLUMN "slot" text;--> statement-breakpoint
ALTER TABLE "memories" ADD COLUMN "embedder" text;--> statement-breakpoint
ALTER TABLE "memories" ADD COLUMN "embedding" "bytea";--> statement-breakpoint
ALTER TABLE "memories" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "memory_scope" text;--> statement-breakpoint
CREATE INDEX "memories_org_subject_updated_idx" ON "memories" USING btree ("org_id","subject","updated_at");--> statement-breakpoint
CREATE INDEX "memories_updated_idx" ON "memories" USING btree ("updated_at");