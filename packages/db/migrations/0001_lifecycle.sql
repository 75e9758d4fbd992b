CREATE TABLE "community_roles" (
	"workspace_id" text COLLATE "C" NOT NULL,
	"user_id" text COLLATE "C" NOT NULL,
	"role" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "community_roles_workspace_id_user_id_role_pk" PRIMARY KEY("workspace_id","user_id","role")
);
--> statement-breakpoint
CREATE TABLE "raffle_draw_snapshots" (
	"raffle_id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"algorithm" text NOT NULL,
	"entry_count" integer NOT NULL,
	"entry_lines" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "community_roles" ADD CONSTRAINT "community_roles_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "community_roles" ADD CONSTRAINT "community_roles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "raffle_draw_snapshots" ADD CONSTRAINT "raffle_draw_snapshots_raffle_id_raffles_id_fk" FOREIGN KEY ("raffle_id") REFERENCES "public"."raffles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "idempotency_records_expiry_idx" ON "idempotency_records" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "raffles_canonical_project_idx" ON "raffles" USING btree ("canonical_project_id") WHERE "raffles"."canonical_project_id" is not null;