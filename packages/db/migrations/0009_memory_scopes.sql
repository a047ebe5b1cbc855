-- Memories written before this migration are verbatim transcripts (user messages and the assistant's
-- answers) shared by the whole organisation; the new contract stores end users' stated facts in their
-- own scope and cannot attribute the old rows to anyone, so they are never recalled again. They move to
-- "memories_legacy" (listed, exported and deleted through the admin API) instead of being lost.
CREATE TABLE "memories_legacy" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"conversation_id" text,
	"role" text NOT NULL,
	"text" text NOT NULL,
	"entities" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "memories_legacy" ADD CONSTRAINT "memories_legacy_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "memories_legacy_org_created_idx" ON "memories_legacy" USING btree ("org_id","created_at");--> statement-breakpoint
INSERT INTO "memories_legacy" ("id", "org_id", "conversation_id", "role", "text", "entities", "created_at")
SELECT "id", "org_id", "conversation_id", "role", "text", "entities", "created_at" FROM "memories";--> statement-breakpoint
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