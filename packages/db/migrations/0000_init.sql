CREATE TABLE "api_keys" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"user_id" text COLLATE "C" NOT NULL,
	"workspace_id" text COLLATE "C",
	"name" text NOT NULL,
	"key_hash" text NOT NULL,
	"prefix" text NOT NULL,
	"last_four" text NOT NULL,
	"scopes" text[] NOT NULL,
	"expires_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	"rolled_from_id" text COLLATE "C",
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "api_keys_key_hash_unique" UNIQUE("key_hash")
);
--> statement-breakpoint
CREATE TABLE "entries" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"raffle_id" text COLLATE "C" NOT NULL,
	"user_id" text COLLATE "C" NOT NULL,
	"status" text NOT NULL,
	"source" text NOT NULL,
	"entry_weight" numeric(20, 6) DEFAULT '1' NOT NULL,
	"wallet_snapshot" text,
	"status_reason" text,
	"duplicate_flags" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"ip_hash" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"workspace_json" text NOT NULL,
	"owner_json" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "entry_requirement_evaluations" (
	"entry_id" text COLLATE "C" NOT NULL,
	"requirement_id" text NOT NULL,
	"type" text NOT NULL,
	"label" text NOT NULL,
	"passed" boolean NOT NULL,
	"evidence" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"evaluated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "entry_requirement_evaluations_entry_id_requirement_id_pk" PRIMARY KEY("entry_id","requirement_id")
);
--> statement-breakpoint
CREATE TABLE "idempotency_records" (
	"api_key_id" text COLLATE "C" NOT NULL,
	"key" text NOT NULL,
	"method" text NOT NULL,
	"path" text NOT NULL,
	"request_hash" text NOT NULL,
	"state" text NOT NULL,
	"response_status" integer,
	"response_body" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "idempotency_records_api_key_id_key_pk" PRIMARY KEY("api_key_id","key")
);
--> statement-breakpoint
CREATE TABLE "event_outbox" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"seq" bigserial NOT NULL,
	"type" text NOT NULL,
	"user_id" text COLLATE "C",
	"workspace_id" text COLLATE "C",
	"payload" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "projects" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"workspace_id" text COLLATE "C" NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"logo_url" text,
	"description" text,
	"website_url" text,
	"chain" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"api_json" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "raffles" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"workspace_id" text COLLATE "C" NOT NULL,
	"slug" text NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"mechanic" text NOT NULL,
	"allocation_type" text NOT NULL,
	"visibility" text NOT NULL,
	"status" text NOT NULL,
	"spots" integer NOT NULL,
	"chain" text,
	"allow_auto_entry" boolean DEFAULT false NOT NULL,
	"requirements" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"settings" jsonb NOT NULL,
	"canonical_project_id" text COLLATE "C",
	"starts_at" timestamp with time zone,
	"ends_at" timestamp with time zone,
	"published_at" timestamp with time zone,
	"opened_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"drawn_at" timestamp with time zone,
	"finalized_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"draw_seed" text,
	"draw_commitment" text,
	"entries_digest" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"workspace_item_json" text NOT NULL,
	"public_item_json" text NOT NULL,
	CONSTRAINT "raffles_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "user_wallets" (
	"user_id" text COLLATE "C" NOT NULL,
	"chain" text NOT NULL,
	"address" text NOT NULL,
	"verified" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_wallets_user_id_chain_address_pk" PRIMARY KEY("user_id","chain","address")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"handle" text NOT NULL,
	"display_name" text,
	"avatar_url" text,
	"email" text,
	"email_verified_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"profile_json" text NOT NULL,
	CONSTRAINT "users_handle_unique" UNIQUE("handle")
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"endpoint_id" text COLLATE "C" NOT NULL,
	"event_id" text COLLATE "C" NOT NULL,
	"event_type" text NOT NULL,
	"status" text NOT NULL,
	"attempt_count" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"last_attempt_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_delivery_attempts" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"delivery_id" text COLLATE "C" NOT NULL,
	"endpoint_id" text COLLATE "C" NOT NULL,
	"attempt_number" integer NOT NULL,
	"response_status" integer,
	"failure_kind" text,
	"latency_ms" integer NOT NULL,
	"response_body" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_endpoints" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"owner_kind" text NOT NULL,
	"user_id" text COLLATE "C",
	"workspace_id" text COLLATE "C",
	"url" text NOT NULL,
	"description" text,
	"event_types" text[] NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"secret" text NOT NULL,
	"previous_secret" text,
	"previous_secret_expires_at" timestamp with time zone,
	"disabled_reason" text,
	"disabled_at" timestamp with time zone,
	"failing_since" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "wins" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"raffle_id" text COLLATE "C" NOT NULL,
	"entry_id" text COLLATE "C" NOT NULL,
	"user_id" text COLLATE "C" NOT NULL,
	"position" integer NOT NULL,
	"source" text NOT NULL,
	"status" text NOT NULL,
	"wallet_snapshot" text,
	"identity_snapshot" jsonb NOT NULL,
	"delivery_status" text NOT NULL,
	"delivery_note" text,
	"selected_at" timestamp with time zone NOT NULL,
	"finalized_at" timestamp with time zone,
	"disqualified_at" timestamp with time zone,
	"replaced_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"win_json" text NOT NULL,
	"winner_json" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workspace_members" (
	"workspace_id" text COLLATE "C" NOT NULL,
	"user_id" text COLLATE "C" NOT NULL,
	"role" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "workspace_members_workspace_id_user_id_pk" PRIMARY KEY("workspace_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "workspaces" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"logo_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "workspaces_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "entries" ADD CONSTRAINT "entries_raffle_id_raffles_id_fk" FOREIGN KEY ("raffle_id") REFERENCES "public"."raffles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "entries" ADD CONSTRAINT "entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "entry_requirement_evaluations" ADD CONSTRAINT "entry_requirement_evaluations_entry_id_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."entries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "raffles" ADD CONSTRAINT "raffles_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "raffles" ADD CONSTRAINT "raffles_canonical_project_id_projects_id_fk" FOREIGN KEY ("canonical_project_id") REFERENCES "public"."projects"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_wallets" ADD CONSTRAINT "user_wallets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."webhook_endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_delivery_attempts" ADD CONSTRAINT "webhook_delivery_attempts_delivery_id_webhook_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."webhook_deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wins" ADD CONSTRAINT "wins_raffle_id_raffles_id_fk" FOREIGN KEY ("raffle_id") REFERENCES "public"."raffles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wins" ADD CONSTRAINT "wins_entry_id_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."entries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wins" ADD CONSTRAINT "wins_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_members" ADD CONSTRAINT "workspace_members_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_members" ADD CONSTRAINT "workspace_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_keys_user_page_idx" ON "api_keys" USING btree ("user_id","kind","id");--> statement-breakpoint
CREATE INDEX "api_keys_workspace_page_idx" ON "api_keys" USING btree ("workspace_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "entries_one_per_user_idx" ON "entries" USING btree ("raffle_id","user_id");--> statement-breakpoint
CREATE INDEX "entries_raffle_page_idx" ON "entries" USING btree ("raffle_id","id");--> statement-breakpoint
CREATE INDEX "entries_user_page_idx" ON "entries" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "entries_wallet_idx" ON "entries" USING btree ("raffle_id","wallet_snapshot");--> statement-breakpoint
CREATE INDEX "entries_ip_idx" ON "entries" USING btree ("raffle_id","ip_hash");--> statement-breakpoint
CREATE INDEX "event_outbox_unpublished_idx" ON "event_outbox" USING btree ("seq") WHERE "event_outbox"."published_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "projects_workspace_slug_idx" ON "projects" USING btree ("workspace_id","slug");--> statement-breakpoint
CREATE INDEX "projects_workspace_page_idx" ON "projects" USING btree ("workspace_id","id");--> statement-breakpoint
CREATE INDEX "raffles_workspace_page_idx" ON "raffles" USING btree ("workspace_id","id");--> statement-breakpoint
CREATE INDEX "raffles_public_page_idx" ON "raffles" USING btree ("published_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "raffles"."visibility" = 'public' and "raffles"."status" in ('scheduled', 'open', 'closed', 'drawn', 'finalized');--> statement-breakpoint
CREATE INDEX "raffles_due_to_open_idx" ON "raffles" USING btree ("starts_at") WHERE "raffles"."status" = 'scheduled';--> statement-breakpoint
CREATE INDEX "raffles_due_to_close_idx" ON "raffles" USING btree ("ends_at") WHERE "raffles"."status" = 'open';--> statement-breakpoint
CREATE INDEX "user_wallets_address_idx" ON "user_wallets" USING btree ("chain","address");--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_deliveries_endpoint_event_idx" ON "webhook_deliveries" USING btree ("endpoint_id","event_id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_endpoint_page_idx" ON "webhook_deliveries" USING btree ("endpoint_id","id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("next_attempt_at") WHERE "webhook_deliveries"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "webhook_attempts_endpoint_page_idx" ON "webhook_delivery_attempts" USING btree ("endpoint_id","id");--> statement-breakpoint
CREATE INDEX "webhook_attempts_delivery_idx" ON "webhook_delivery_attempts" USING btree ("delivery_id","attempt_number");--> statement-breakpoint
CREATE INDEX "webhook_endpoints_user_page_idx" ON "webhook_endpoints" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "webhook_endpoints_workspace_page_idx" ON "webhook_endpoints" USING btree ("workspace_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "wins_live_position_idx" ON "wins" USING btree ("raffle_id","position") WHERE "wins"."status" in ('selected', 'finalized');--> statement-breakpoint
CREATE UNIQUE INDEX "wins_live_entry_idx" ON "wins" USING btree ("entry_id") WHERE "wins"."status" in ('selected', 'finalized');--> statement-breakpoint
CREATE INDEX "wins_user_page_idx" ON "wins" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "wins_raffle_position_idx" ON "wins" USING btree ("raffle_id","position");--> statement-breakpoint
CREATE INDEX "workspace_members_user_idx" ON "workspace_members" USING btree ("user_id");