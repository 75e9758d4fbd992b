-- Issue 26, decision 0034: the duplicate lookups (enter_raffle, readEntrantAdmission) find an
-- entry's twins by equality on its wallet or IP, which a null never matches, so the two signal
-- indexes keep only the entries that carry the signal. An entrant without a wallet (most) then
-- costs one index insert less, and the one that went to the busiest page: every such entry of a
-- raffle had the same key (raffle_id, null), so concurrent entries queued on one posting list.
DROP INDEX "entries_wallet_idx";--> statement-breakpoint
DROP INDEX "entries_ip_idx";--> statement-breakpoint
CREATE INDEX "entries_wallet_idx" ON "entries" USING btree ("raffle_id","wallet_snapshot") WHERE "entries"."wallet_snapshot" is not null;--> statement-breakpoint
CREATE INDEX "entries_ip_idx" ON "entries" USING btree ("raffle_id","ip_hash") WHERE "entries"."ip_hash" is not null;