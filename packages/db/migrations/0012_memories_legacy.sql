-- Databases that applied 0009 before it kept pre-0009 memories aside lack "memories_legacy": create it
-- empty there (a no-op where 0009 made it).
CREATE TABLE IF NOT EXISTS "memories_legacy" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"conversation_id" text,
	"role" text NOT NULL,
	"text" text NOT NULL,
	"entities" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
DO $$ BEGIN
	ALTER TABLE "memories_legacy" ADD CONSTRAINT "memories_legacy_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE cascade ON UPDATE no action;
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "memories_legacy_org_created_idx" ON "memories_legacy" USING btree ("org_id","created_at");
