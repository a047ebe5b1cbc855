ALTER TABLE "batch_lines" ADD COLUMN "native_id" text;--> statement-breakpoint
ALTER TABLE "batches" ADD COLUMN "natives" jsonb;--> statement-breakpoint
ALTER TABLE "batches" ADD COLUMN "poll_at" timestamp with time zone;