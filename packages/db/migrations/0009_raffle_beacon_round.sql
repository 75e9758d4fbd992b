ALTER TABLE "raffles" ADD COLUMN "beacon_round" bigint;--> statement-breakpoint
ALTER TABLE "raffles" ADD COLUMN "beacon_chain_hash" text;