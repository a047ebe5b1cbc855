ALTER TABLE "api_keys" ADD COLUMN "rpm_limit" integer;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "tpm_limit" integer;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "monthly_budget_usd" double precision;