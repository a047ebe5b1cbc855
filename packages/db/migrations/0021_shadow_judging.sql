CREATE TABLE "shadow_verdicts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"request_id" text NOT NULL,
	"task_kind" text NOT NULL,
	"incumbent_model" text NOT NULL,
	"candidate_model" text NOT NULL,
	"judge_model" text NOT NULL,
	"verdict" text NOT NULL,
	"candidate_cost_usd" double precision DEFAULT 0 NOT NULL,
	"judge_cost_usd" double precision DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "shadow_verdicts" ADD CONSTRAINT "shadow_verdicts_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "shadow_verdicts_org_created_idx" ON "shadow_verdicts" USING btree ("org_id","created_at");