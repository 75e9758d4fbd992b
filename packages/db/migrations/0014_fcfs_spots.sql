CREATE TABLE "fcfs_spots" (
	"raffle_id" text COLLATE "C" NOT NULL,
	"position" integer NOT NULL,
	"entry_id" text COLLATE "C",
	CONSTRAINT "fcfs_spots_raffle_id_position_pk" PRIMARY KEY("raffle_id","position")
);
--> statement-breakpoint
ALTER TABLE "fcfs_spots" ADD CONSTRAINT "fcfs_spots_raffle_id_raffles_id_fk" FOREIGN KEY ("raffle_id") REFERENCES "public"."raffles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "fcfs_spots_free_idx" ON "fcfs_spots" USING btree ("raffle_id","position") WHERE "fcfs_spots"."entry_id" is null;--> statement-breakpoint
-- An entry claims its spot before its insert is sent (the win it renders carries the position), so
-- the spot's entry is checked at commit. An entry deleted with its user frees its spot.
ALTER TABLE "fcfs_spots" ADD CONSTRAINT "fcfs_spots_entry_id_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."entries"("id") ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED;--> statement-breakpoint
-- FCFS raffles open when this runs get their spots from their wins: a position held by a live win
-- is taken; any other (never handed out, or freed by a disqualification while open) is free. The
-- lowest free spot first is the order the counters of decision 0009 gave: freed positions, then the next.
INSERT INTO "fcfs_spots" ("raffle_id", "position", "entry_id")
SELECT r."id", p, (SELECT w."entry_id" FROM "wins" w
                   WHERE w."raffle_id" = r."id" AND w."position" = p AND w."status" IN ('selected', 'finalized'))
FROM "raffles" r, generate_series(1, r."spots") p
WHERE r."mechanic" = 'fcfs' AND r."status" = 'open';--> statement-breakpoint
-- The spots of an FCFS raffle, made when it opens (its spots are fixed from then on). Nothing for
-- another mechanic; nothing again for a raffle that has them.
CREATE FUNCTION open_fcfs_spots(p_raffle_id text) RETURNS void LANGUAGE sql AS $$
  INSERT INTO fcfs_spots (raffle_id, position)
  SELECT r.id, p FROM raffles r, generate_series(1, r.spots) p
  WHERE r.id = p_raffle_id AND r.mechanic = 'fcfs'
  ON CONFLICT DO NOTHING;
$$;--> statement-breakpoint
-- An FCFS entrant's spot (decision 0029). The caller holds the raffle row FOR SHARE (so no close or
-- disqualification runs meanwhile) and has checked the raffle is open.
-- The lowest free spot no other entry is claiming is taken at once (SKIP LOCKED): entries lock a
-- spot each and commit in parallel. When every free spot is being claimed by entries still in
-- flight, which may roll back, the raffle is not full yet: the claim waits for the lowest of them,
-- and when its claimer ends, a spot it committed is passed over for the next (waiting again if
-- that one is being claimed too), a spot whose claim rolled back is taken. NULL only when no spot is
-- free once every claim before this one ended: the raffle is full (the caller says RAFFLE_FULL).
CREATE FUNCTION claim_fcfs_spot(p_raffle_id text, p_entry_id text) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  v_position integer;
BEGIN
  SELECT s.position INTO v_position FROM fcfs_spots s
  WHERE s.raffle_id = p_raffle_id AND s.entry_id IS NULL
  ORDER BY s.position LIMIT 1
  FOR UPDATE SKIP LOCKED;
  IF NOT FOUND THEN
    SELECT s.position INTO v_position FROM fcfs_spots s
    WHERE s.raffle_id = p_raffle_id AND s.entry_id IS NULL
    ORDER BY s.position LIMIT 1
    FOR UPDATE;
    IF NOT FOUND THEN
      RETURN NULL;
    END IF;
  END IF;
  -- Deleted and inserted again as taken, not updated: a claimer whose snapshot still sees this spot
  -- free then finds it deleted and passes over it. An update would make it follow the update to the
  -- taken version and lock that (READ COMMITTED) before passing over it, holding the lock to its
  -- commit: claimers waiting for each other's passed-over spots deadlocked.
  DELETE FROM fcfs_spots WHERE raffle_id = p_raffle_id AND position = v_position;
  INSERT INTO fcfs_spots (raffle_id, position, entry_id) VALUES (p_raffle_id, v_position, p_entry_id);
  RETURN v_position;
END
$$;--> statement-breakpoint
-- A live win of an FCFS raffle was disqualified: while the raffle is open its spot is offered again
-- (the next claim takes the lowest free spot, and the caller marks the disqualified win of that
-- position `replaced`, as a reroll would). Once closed, the position is left to a reroll. The
-- caller holds the raffle row exclusively. Returns whether a spot was freed.
CREATE FUNCTION free_fcfs_spot(p_raffle_id text, p_position integer, p_entry_id text) RETURNS boolean LANGUAGE sql AS $$
  WITH freed AS (
    UPDATE fcfs_spots s SET entry_id = NULL
    WHERE s.raffle_id = p_raffle_id AND s.position = p_position AND s.entry_id = p_entry_id
      AND EXISTS (SELECT 1 FROM raffles r WHERE r.id = p_raffle_id AND r.mechanic = 'fcfs' AND r.status = 'open')
    RETURNING 1)
  SELECT EXISTS (SELECT 1 FROM freed);
$$;--> statement-breakpoint
-- Whether an FCFS raffle's every spot is taken, as far as the caller's snapshot sees: exact for a
-- caller holding the raffle row exclusively (no claim is in flight then), which is how the close
-- decides; a raffle without spots (not FCFS, or not opened yet) is never full.
CREATE FUNCTION fcfs_spots_all_taken(p_raffle_id text) RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT EXISTS (SELECT 1 FROM fcfs_spots s WHERE s.raffle_id = p_raffle_id)
     AND NOT EXISTS (SELECT 1 FROM fcfs_spots s WHERE s.raffle_id = p_raffle_id AND s.entry_id IS NULL);
$$;
--> statement-breakpoint
-- Whether an FCFS raffle has a free spot no entry is claiming right now. An entrant asks it after
-- its own claim: when none is left, every spot is taken or being claimed, and the entrant may be
-- the last to commit, so it tries the close once committed (which waits for the claims in flight
-- and closes only when every spot is taken). The probe locks a free spot to learn that no claim
-- holds it, in a subtransaction rolled back at once: no claim ever waits for the probe.
CREATE FUNCTION fcfs_spot_unclaimed(p_raffle_id text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  v_unclaimed boolean := false;
BEGIN
  BEGIN
    PERFORM 1 FROM fcfs_spots s
    WHERE s.raffle_id = p_raffle_id AND s.entry_id IS NULL
    ORDER BY s.position LIMIT 1
    FOR SHARE SKIP LOCKED;
    v_unclaimed := FOUND;
    RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = 'fcfs_spot_unclaimed: release the probe';
  EXCEPTION WHEN raise_exception THEN
    NULL;
  END;
  RETURN v_unclaimed;
END
$$;
