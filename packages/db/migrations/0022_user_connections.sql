CREATE TABLE "oauth_link_states" (
	"state_hash" text PRIMARY KEY NOT NULL,
	"user_id" text COLLATE "C" NOT NULL,
	"provider" text NOT NULL,
	"code_verifier" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	CONSTRAINT "oauth_link_states_provider_check" CHECK ("oauth_link_states"."provider" in ('discord', 'x'))
);
--> statement-breakpoint
CREATE TABLE "user_connections" (
	"user_id" text COLLATE "C" NOT NULL,
	"provider" text NOT NULL,
	"account_id" text NOT NULL,
	"account_name" text NOT NULL,
	"access_token" text NOT NULL,
	"refresh_token" text,
	"access_token_expires_at" timestamp with time zone NOT NULL,
	"scopes" text[] NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"revoked_reason" text,
	"refresh_claimed_until" timestamp with time zone,
	"linked_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "user_connections_user_id_provider_pk" PRIMARY KEY("user_id","provider"),
	CONSTRAINT "user_connections_provider_check" CHECK ("user_connections"."provider" in ('discord', 'x')),
	CONSTRAINT "user_connections_status_check" CHECK ("user_connections"."status" in ('active', 'revoked'))
);
--> statement-breakpoint
ALTER TABLE "oauth_link_states" ADD CONSTRAINT "oauth_link_states_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_connections" ADD CONSTRAINT "user_connections_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "oauth_link_states_user_idx" ON "oauth_link_states" USING btree ("user_id","expires_at");--> statement-breakpoint
CREATE INDEX "user_connections_account_idx" ON "user_connections" USING btree ("provider","account_id");