ALTER TABLE "organizations" ADD COLUMN "pass_through_models" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "usage_events" ADD COLUMN "unpriced" boolean DEFAULT false NOT NULL;