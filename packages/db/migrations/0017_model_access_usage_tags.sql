ALTER TABLE "api_keys" ADD COLUMN "model_access" jsonb;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "model_access" jsonb;--> statement-breakpoint
ALTER TABLE "usage_events" ADD COLUMN "tags" jsonb;