CREATE TABLE "stored_responses" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"model" text NOT NULL,
	"status" text NOT NULL,
	"response" jsonb NOT NULL,
	"input_items" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"messages" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "stored_responses" ADD CONSTRAINT "stored_responses_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stored_responses_org_idx" ON "stored_responses" USING btree ("org_id");--> statement-breakpoint
CREATE INDEX "stored_responses_expires_idx" ON "stored_responses" USING btree ("expires_at");