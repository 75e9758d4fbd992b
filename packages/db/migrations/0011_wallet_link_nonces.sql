CREATE TABLE "wallet_link_nonces" (
	"nonce" text PRIMARY KEY NOT NULL,
	"user_id" text COLLATE "C" NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "user_wallets" ADD COLUMN "chain_id" integer;--> statement-breakpoint
ALTER TABLE "user_wallets" ADD COLUMN "verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "user_wallets" ADD COLUMN "verified_by" text;--> statement-breakpoint
ALTER TABLE "wallet_link_nonces" ADD CONSTRAINT "wallet_link_nonces_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "wallet_link_nonces_user_idx" ON "wallet_link_nonces" USING btree ("user_id","expires_at");
--> statement-breakpoint
-- Wallets marked verified before linking existed came from the demo data or an import: say so.
UPDATE "user_wallets" SET "verified_by" = 'seed', "verified_at" = "created_at" WHERE "verified" AND "verified_by" IS NULL;
