ALTER TABLE "entry_requirement_evaluations" ADD COLUMN "detail" text;--> statement-breakpoint
CREATE INDEX "entries_pending_idx" ON "entries" USING btree ("id") WHERE "entries"."status" = 'pending';