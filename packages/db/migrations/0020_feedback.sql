CREATE TABLE "request_feedback" (
	"request_id" text PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"key_id" text,
	"model" text NOT NULL,
	"task_family" text,
	"score" double precision NOT NULL,
	"thumbs" text,
	"comment" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "request_feedback" ADD CONSTRAINT "request_feedback_request_id_usage_events_request_id_fk" FOREIGN KEY ("request_id") REFERENCES "usage_events"("request_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_feedback" ADD CONSTRAINT "request_feedback_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "request_feedback_org_created_idx" ON "request_feedback" USING btree ("org_id","created_at");--> statement-breakpoint
UPDATE "api_keys" SET "scopes" = array_append("scopes", 'feedback:write') WHERE 'inference:chat' = ANY("scopes") AND NOT ('feedback:write' = ANY("scopes"));
