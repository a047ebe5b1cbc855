CREATE TABLE "alerts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid,
	"kind" text NOT NULL,
	"severity" text NOT NULL,
	"status" text DEFAULT 'firing' NOT NULL,
	"dedupe_key" text NOT NULL,
	"subject" text NOT NULL,
	"message" text NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"fired_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "onboarding_steps" (
	"org_id" uuid NOT NULL,
	"step" text NOT NULL,
	"source" text NOT NULL,
	"completed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "onboarding_steps_pkey" PRIMARY KEY("org_id","step")
);
--> statement-breakpoint
CREATE TABLE "org_output_configs" (
	"org_id" uuid PRIMARY KEY NOT NULL,
	"output_verification" text DEFAULT 'auto' NOT NULL,
	"healing" boolean DEFAULT true NOT NULL,
	"min_confidence" double precision DEFAULT 0 NOT NULL,
	"max_reasks" integer DEFAULT 1 NOT NULL,
	"cross_model_candidate" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "slos" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"name" text NOT NULL,
	"metric" text NOT NULL,
	"threshold" double precision NOT NULL,
	"target" double precision NOT NULL,
	"window_days" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "slos_org_name_key" UNIQUE("org_id","name")
);
--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "onboarding_steps" ADD CONSTRAINT "onboarding_steps_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "org_output_configs" ADD CONSTRAINT "org_output_configs_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "slos" ADD CONSTRAINT "slos_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "alerts_firing_dedupe_key_idx" ON "alerts" USING btree ("dedupe_key") WHERE status = 'firing';--> statement-breakpoint
CREATE INDEX "alerts_org_fired_idx" ON "alerts" USING btree ("org_id","fired_at");--> statement-breakpoint
CREATE INDEX "alerts_fired_idx" ON "alerts" USING btree ("fired_at");