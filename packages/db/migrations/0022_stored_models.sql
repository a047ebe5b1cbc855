CREATE TABLE "stored_models" (
	"id" text PRIMARY KEY NOT NULL,
	"entry" jsonb NOT NULL,
	"updated_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
