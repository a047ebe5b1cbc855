CREATE TABLE "memories" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"conversation_id" text,
	"role" text NOT NULL,
	"text" text NOT NULL,
	"entities" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "memories" ADD CONSTRAINT "memories_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "memories_org_created_idx" ON "memories" USING btree ("org_id","created_at");--> statement-breakpoint
CREATE INDEX "memories_org_conversation_created_idx" ON "memories" USING btree ("org_id","conversation_id","created_at");