ALTER TABLE "raffles" ADD COLUMN "positions_taken" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "raffles" ADD COLUMN "positions_freed" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- FCFS raffles that already handed positions out continue after the highest one; an open one
-- hands out again the positions whose win was disqualified and that no live win holds.
UPDATE "raffles" r SET
  "positions_taken" = coalesce((SELECT max(w."position") FROM "wins" w WHERE w."raffle_id" = r."id"), 0),
  "positions_freed" = CASE WHEN r."status" = 'open' THEN
    coalesce((SELECT max(w."position") FROM "wins" w WHERE w."raffle_id" = r."id"), 0)
    - (SELECT count(DISTINCT w."position") FROM "wins" w WHERE w."raffle_id" = r."id" AND w."status" IN ('selected', 'finalized'))
  ELSE 0 END
WHERE r."mechanic" = 'fcfs';
