-- Issue 34: every foreign key has an index its checks can use. Deleting a raffle removes its
-- entries one foreign-key check each, and fcfs_spots.entry_id (and wins.entry_id for the
-- disqualified and replaced wins) had none: a scan of the table per entry, over 5 minutes for a
-- benchmark raffle. community_roles.user_id: its key leads with the workspace, so a user's delete
-- scanned every role. packages/db/test/foreign-key-indexes.test.ts holds every key to this.
CREATE INDEX "wins_entry_idx" ON "wins" USING btree ("entry_id");--> statement-breakpoint
CREATE INDEX "community_roles_user_idx" ON "community_roles" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "fcfs_spots_entry_idx" ON "fcfs_spots" USING btree ("entry_id") WHERE "fcfs_spots"."entry_id" is not null;