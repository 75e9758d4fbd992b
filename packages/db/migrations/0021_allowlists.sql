-- Issue 35: a raffle's allowlist as a Merkle root. Versions (never rewritten), the leaves of each
-- and the queue of raffles whose allowlist must be (re)built; a winner may name the wallet their
-- leaf is for. The three new raffle settings get their defaults on every existing raffle.
CREATE TABLE "raffle_allowlist_builds" (
	"raffle_id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"requested_at" timestamp with time zone NOT NULL,
	"not_before" timestamp with time zone NOT NULL,
	"claimed_until" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text
);
--> statement-breakpoint
CREATE TABLE "raffle_allowlist_leaves" (
	"raffle_id" text COLLATE "C" NOT NULL,
	"version" integer NOT NULL,
	"address" text COLLATE "C" NOT NULL,
	"quantity" text NOT NULL,
	"tree_index" integer NOT NULL,
	CONSTRAINT "raffle_allowlist_leaves_raffle_id_version_address_pk" PRIMARY KEY("raffle_id","version","address")
);
--> statement-breakpoint
CREATE TABLE "raffle_allowlists" (
	"raffle_id" text COLLATE "C" NOT NULL,
	"version" integer NOT NULL,
	"root" text NOT NULL,
	"leaf_count" integer NOT NULL,
	"unlisted_winners" integer NOT NULL,
	"reason" text NOT NULL,
	"tree" "bytea" NOT NULL,
	"published_at" timestamp with time zone NOT NULL,
	CONSTRAINT "raffle_allowlists_raffle_id_version_pk" PRIMARY KEY("raffle_id","version")
);
--> statement-breakpoint
ALTER TABLE "wins" ADD COLUMN "allowlist_wallet" text;--> statement-breakpoint
ALTER TABLE "raffle_allowlist_builds" ADD CONSTRAINT "raffle_allowlist_builds_raffle_id_raffles_id_fk" FOREIGN KEY ("raffle_id") REFERENCES "public"."raffles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "raffle_allowlist_leaves" ADD CONSTRAINT "raffle_allowlist_leaves_version_fk" FOREIGN KEY ("raffle_id","version") REFERENCES "public"."raffle_allowlists"("raffle_id","version") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "raffle_allowlists" ADD CONSTRAINT "raffle_allowlists_raffle_id_raffles_id_fk" FOREIGN KEY ("raffle_id") REFERENCES "public"."raffles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "raffle_allowlist_builds_due_idx" ON "raffle_allowlist_builds" USING btree ("not_before");--> statement-breakpoint
-- The tree is read by offset (a proof's sibling nodes), never whole: kept uncompressed so a slice
-- fetches only the TOAST chunks that hold it.
ALTER TABLE "raffle_allowlists" ALTER COLUMN "tree" SET STORAGE EXTERNAL;--> statement-breakpoint
UPDATE "raffles" SET "settings" = '{"allowlistQuantity": 1, "allowlistPublic": false, "walletDeadline": null}'::jsonb || "settings";
--> statement-breakpoint
-- Allowlist raffles finalized before this migration get their first version from the builder too.
INSERT INTO "raffle_allowlist_builds" ("raffle_id", "requested_at", "not_before")
  SELECT "id", now(), now() FROM "raffles" WHERE "status" = 'finalized' AND "allocation_type" IN ('allowlist_gtd', 'allowlist_fcfs');
