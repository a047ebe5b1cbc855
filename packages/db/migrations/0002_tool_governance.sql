CREATE TABLE "tool_policies" (
	"org_id" uuid PRIMARY KEY NOT NULL,
	"enforce_registry" boolean DEFAULT false NOT NULL,
	"require_schema_match" boolean DEFAULT false NOT NULL,
	"blocked_tools" text[] DEFAULT '{}' NOT NULL,
	"blocked_argument_patterns" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tool_registry" (
	"org_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"parameters" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tool_registry_pkey" PRIMARY KEY("org_id","name")
);
--> statement-breakpoint
ALTER TABLE "tool_policies" ADD CONSTRAINT "tool_policies_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_registry" ADD CONSTRAINT "tool_registry_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE cascade ON UPDATE no action;