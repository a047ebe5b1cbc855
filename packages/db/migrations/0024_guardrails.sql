ALTER TABLE "api_keys" ADD COLUMN "guardrails" jsonb;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "guardrails" jsonb;