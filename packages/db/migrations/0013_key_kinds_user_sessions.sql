ALTER TABLE "api_keys" ADD COLUMN "kind" text DEFAULT 'standard' NOT NULL;--> statement-breakpoint
ALTER TABLE "dashboard_users" ADD COLUMN "disabled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "dashboard_users" ADD COLUMN "session_generation" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- The bootstrap master keys made before this column (name `master` in org `default`, admin scope) are master keys: the next SVC_MASTER_KEY supersedes them.
UPDATE "api_keys" SET "kind" = 'master' WHERE "name" = 'master' AND 'admin' = ANY("scopes") AND "org_id" IN (SELECT "id" FROM "organizations" WHERE "name" = 'default');--> statement-breakpoint
-- A master key's stored prefix was its first 14 characters: nothing of it is kept.
UPDATE "api_keys" SET "key_prefix" = 'master' WHERE "kind" = 'master';--> statement-breakpoint
-- Generated keys showed 7 characters of their secret after `sk-svc-`: only the family is kept (new keys show a public identifier instead).
UPDATE "api_keys" SET "key_prefix" = 'sk-svc-' WHERE "kind" = 'standard' AND "key_prefix" LIKE 'sk-svc-%' AND length("key_prefix") = 14;
