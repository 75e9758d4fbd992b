CREATE TABLE "connection_rate_limits" (
	"user_id" text COLLATE "C" NOT NULL,
	"provider" text NOT NULL,
	"reset_at" timestamp with time zone NOT NULL,
	CONSTRAINT "connection_rate_limits_user_id_provider_pk" PRIMARY KEY("user_id","provider")
);
--> statement-breakpoint
ALTER TABLE "connection_rate_limits" ADD CONSTRAINT "connection_rate_limits_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
-- Issue 36, shared Discord and X accounts: enter_raffle flags an entry whose entrant linked a
-- Discord (or X) account another entrant of the raffle linked too, when the raffle's requirements
-- read that provider (`discordReuse`, `xReuse`), as it flags a shared wallet. The function of 0019
-- is replaced in place (same arguments, same result); a raffle whose requirements read neither
-- provider sends the statements it sent before (decision 0034): the test is a jsonpath on the row
-- already read. One that reads either reads the entrant's accounts in one statement, takes one
-- advisory lock per account (after the wallets' and the IP's, one order for every entry), and finds
-- the twins through the connections' (provider, account_id) index. The overloads of 0015 are left.
CREATE OR REPLACE FUNCTION enter_raffle(
  p_raffle_id text,
  p_raffle_slug text,
  p_user_id text,
  p_entry_id text,
  p_source text,
  p_ip_hash text,
  p_at text,
  p_requirements_fingerprint text,
  p_verdict text,
  p_entry_weight text,
  p_evaluations jsonb,
  p_workspace_json text,
  p_owner_json text,
  p_event_stem text,
  p_trace_context text,
  p_notify boolean,
  p_idempotency_api_key_id text,
  p_idempotency_key text,
  -- When the caller's plan says the raffle is first-come: the win the entry would make, its views
  -- rendered with markers (win-template.ts). NULL otherwise; an FCFS raffle then answers `plan_changed`.
  p_win_id text,
  p_win_json text,
  p_winner_json text
) RETURNS TABLE (
  outcome text,
  detail text,
  raffle json,
  wallet_snapshot text,
  duplicate_flags text,
  workspace_json text,
  owner_json text,
  requirements jsonb,
  requirements_fingerprint text,
  workspace_id text,
  mechanic text,
  win_position integer,
  winner_identity text,
  win_json text,
  winner_json text,
  may_close boolean
) LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  -- Flags list at most this many other entries: enough to judge, bounded for a farmed IP.
  c_listed_duplicates CONSTANT integer := 50;
  v_now timestamptz := p_at::timestamptz;
  r raffles%ROWTYPE;
  v_full boolean;
  v_existing text;
  v_wallet text;
  v_counted_chains text[];
  v_counted_addresses text[];
  v_fingerprint text;
  v_wallet_reuse text[] := '{}';
  v_ip_reuse text[] := '{}';
  v_reads_discord boolean;
  v_reads_x boolean;
  v_discord_account text;
  v_x_account text;
  v_discord_reuse text[] := '{}';
  v_x_reuse text[] := '{}';
  v_flags text;
  v_workspace_json text;
  v_owner_json text;
  v_events integer := 0;
  v_position integer;
  v_may_close boolean := false;
  v_identity text;
  v_win_json text;
  v_winner_json text;
  v_replaced integer;
BEGIN
  -- Visible as on the personal raffle routes: published, and public or unlisted, or private to a
  -- workspace the user belongs to. A slug names one raffle only among the published.
  SELECT x.* INTO r FROM raffles x
  WHERE (x.id = p_raffle_id OR (x.slug = p_raffle_slug AND x.published_at IS NOT NULL))
    AND x.status IN ('scheduled', 'open', 'closed', 'drawn', 'finalized')
    AND (x.visibility IN ('public', 'unlisted')
      OR EXISTS (SELECT 1 FROM workspace_members m WHERE m.workspace_id = x.workspace_id AND m.user_id = p_user_id));
  IF NOT FOUND THEN
    RETURN QUERY SELECT 'raffle_not_found', NULL::text, NULL::json, NULL::text, NULL::text, NULL::text, NULL::text, NULL::jsonb, NULL::text, NULL::text,
      NULL::text, NULL::integer, NULL::text, NULL::text, NULL::text, false;
    RETURN;
  END IF;

  -- A first-come raffle whose every spot is taken by a committed claim is refused here, read
  -- unlocked: the rush after it filled (19,000 of the FCFS drop's 20,000) is answered side by side
  -- and never holds the row, so the close is not starved by it. A claim still in flight has not
  -- committed, so its spot still reads free: such a raffle is not full yet, and the entry goes on to
  -- claim, which waits for it (decision 0029). A disqualification that frees a spot commits it
  -- free, and the next entrant reads it here: "full" is never remembered.
  v_full := r.mechanic = 'fcfs' AND r.status IN ('open', 'closed') AND fcfs_spots_all_taken(r.id);

  -- Entries of collection raffles count the valid entries: they take the row one at a time. The
  -- others share it: they run in parallel, yet a close (which takes it exclusively) never commits
  -- between an entry's check and its commit. A raffle that is not open is refused unlocked.
  IF r.status = 'open' AND NOT v_full THEN
    IF r.mechanic = 'collection' THEN
      SELECT * INTO r FROM raffles x WHERE x.id = r.id FOR NO KEY UPDATE;
    ELSE
      SELECT * INTO r FROM raffles x WHERE x.id = r.id FOR SHARE;
    END IF;
    -- Closed while this waited for the row: full if the entry that took the last spot closed it.
    v_full := r.mechanic = 'fcfs' AND r.status = 'closed' AND fcfs_spots_all_taken(r.id);
  END IF;
  IF v_full THEN
    RETURN QUERY SELECT 'raffle_full', r.spots::text, NULL::json, NULL::text, NULL::text, NULL::text, NULL::text, NULL::jsonb, NULL::text, NULL::text,
      NULL::text, NULL::integer, NULL::text, NULL::text, NULL::text, false;
    RETURN;
  END IF;

  IF r.status <> 'open' OR (r.ends_at IS NOT NULL AND r.ends_at <= v_now) THEN
    RETURN QUERY SELECT 'raffle_not_open', NULL::text, row_to_json(r), NULL::text, NULL::text, NULL::text, NULL::text, NULL::jsonb, NULL::text, NULL::text,
      NULL::text, NULL::integer, NULL::text, NULL::text, NULL::text, false;
    RETURN;
  END IF;

  SELECT e.id INTO v_existing FROM entries e WHERE e.raffle_id = r.id AND e.user_id = p_user_id;
  IF v_existing IS NOT NULL THEN
    RETURN QUERY SELECT 'already_entered', v_existing, NULL::json, NULL::text, NULL::text, NULL::text, NULL::text, NULL::jsonb, NULL::text, NULL::text,
      NULL::text, NULL::integer, NULL::text, NULL::text, NULL::text, false;
    RETURN;
  END IF;

  -- The verdicts were evaluated for the requirements the caller had planned, and the win rendered
  -- if it planned a first-come raffle; another plan (a cached one stale, or none yet) is sent back
  -- for it to evaluate and render, and call again.
  v_fingerprint := CASE WHEN r.requirements = '[]'::jsonb THEN NULL ELSE md5(r.requirements::text) END;
  IF v_fingerprint IS DISTINCT FROM p_requirements_fingerprint OR (r.mechanic = 'fcfs' AND p_win_json IS NULL) THEN
    RETURN QUERY SELECT 'plan_changed', NULL::text, NULL::json, NULL::text, NULL::text, NULL::text, NULL::text,
      r.requirements, v_fingerprint, r.workspace_id, r.mechanic, NULL::integer, NULL::text, NULL::text, NULL::text, false;
    RETURN;
  END IF;
  IF p_verdict = 'failed' THEN
    RETURN QUERY SELECT 'requirements_not_met', NULL::text, NULL::json, NULL::text, NULL::text, NULL::text, NULL::text, NULL::jsonb, NULL::text, NULL::text,
      NULL::text, NULL::integer, NULL::text, NULL::text, NULL::text, false;
    RETURN;
  END IF;
  -- Nested, not `AND`: a condition with a subquery is no plpgsql simple expression, and costs an
  -- executor start on every entry even when `AND` short-circuits (decision 0034).
  IF r.mechanic = 'collection' THEN
    IF (SELECT count(*) FROM entries e WHERE e.raffle_id = r.id AND e.status = 'valid') >= r.spots THEN
      RETURN QUERY SELECT 'raffle_full', r.spots::text, NULL::json, NULL::text, NULL::text, NULL::text, NULL::text, NULL::jsonb, NULL::text, NULL::text,
        NULL::text, NULL::integer, NULL::text, NULL::text, NULL::text, false;
      RETURN;
    END IF;
  END IF;

  -- A first-come entry wins at once: its spot, the lowest free one (decision 0029). Claimed before
  -- this entry locks any other row (the earlier entries it flags, below), so a claim that waits
  -- for a claim in flight never waits for an entry that waits for it. A pending entry takes no
  -- spot: it takes one when it is settled (settlePendingEntries).
  IF r.mechanic = 'fcfs' AND p_verdict <> 'pending' THEN
    v_position := claim_fcfs_spot(r.id, p_entry_id);
    IF v_position IS NULL THEN
      RETURN QUERY SELECT 'raffle_full', r.spots::text, NULL::json, NULL::text, NULL::text, NULL::text, NULL::text, NULL::jsonb, NULL::text, NULL::text,
        NULL::text, NULL::integer, NULL::text, NULL::text, NULL::text, false;
      RETURN;
    END IF;
    -- No free spot left that no one is claiming: this entry may be the last to commit, and the
    -- service tries the close once it has (closeFcfsRaffleWhenFull, which waits for the claims in
    -- flight and closes only when every spot is taken).
    v_may_close := NOT fcfs_spot_unclaimed(r.id);
  END IF;

  -- The wallet the entry snapshots on the raffle's chain (a verified one first, then the oldest),
  -- and the wallets its eligibility counts (issue 34): the entrant's verified wallets on the
  -- raffle's chain and on every chain a requirement reads, as chain-verdicts sums them, or on any
  -- chain when the raffle names none. One statement for both, as the snapshot alone was.
  SELECT (array_agg(w.address ORDER BY w.verified DESC, w.created_at) FILTER (WHERE w.chain = r.chain))[1],
    array_agg(w.chain ORDER BY w.chain, w.address) FILTER (WHERE w.verified AND (r.chain IS NULL OR w.chain = r.chain OR w.chain = ANY (c.chains))),
    array_agg(w.address ORDER BY w.chain, w.address) FILTER (WHERE w.verified AND (r.chain IS NULL OR w.chain = r.chain OR w.chain = ANY (c.chains)))
  INTO v_wallet, v_counted_chains, v_counted_addresses
  FROM user_wallets w,
    (SELECT array(SELECT q -> 'params' ->> 'chain' FROM jsonb_array_elements(r.requirements) q WHERE q -> 'params' ? 'chain') AS chains) c
  WHERE w.user_id = p_user_id;

  -- The Discord and X accounts the entrant linked, for a raffle whose requirements read that
  -- provider (issue 36): a jsonpath test on the row already read, so a raffle reading neither sends
  -- no statement for it (decision 0034); one that reads either, one statement for both.
  v_reads_discord := r.requirements @? '$[*] ? (@.type starts with "discord_")';
  v_reads_x := r.requirements @? '$[*] ? (@.type starts with "x_")';
  IF v_reads_discord OR v_reads_x THEN
    SELECT max(c.account_id) FILTER (WHERE c.provider = 'discord' AND v_reads_discord),
      max(c.account_id) FILTER (WHERE c.provider = 'x' AND v_reads_x)
    INTO v_discord_account, v_x_account
    FROM user_connections c WHERE c.user_id = p_user_id;
  END IF;

  -- Entries sharing a signal queue on its advisory lock, wallets before IP and wallets in address
  -- order, then the Discord account, then the X one (one order, no deadlock), so two that arrive at
  -- once see each other; unrelated entries never wait. A wallet's lock is keyed by its address
  -- alone, as the snapshot's always was.
  IF v_wallet IS NOT NULL OR v_counted_addresses IS NOT NULL THEN
    PERFORM pg_advisory_xact_lock(hashtextextended(r.id || ':w:' || x.address, 0))
    FROM (SELECT DISTINCT a AS address FROM unnest(coalesce(v_counted_addresses, '{}') || v_wallet) a WHERE a IS NOT NULL ORDER BY 1) x;
  END IF;
  IF p_ip_hash IS NOT NULL THEN
    PERFORM pg_advisory_xact_lock(hashtextextended(r.id || ':i:' || p_ip_hash, 0));
  END IF;
  IF v_discord_account IS NOT NULL THEN
    PERFORM pg_advisory_xact_lock(hashtextextended(r.id || ':d:' || v_discord_account, 0));
  END IF;
  IF v_x_account IS NOT NULL THEN
    PERFORM pg_advisory_xact_lock(hashtextextended(r.id || ':x:' || v_x_account, 0));
  END IF;
  -- After the locks: a new statement, a new snapshot, which sees every entry committed before them.
  -- A lookup runs only for a signal the entry has (`= NULL` matches nothing; the arrays start empty):
  -- one statement less for each signal it lacks (decision 0034). A wallet twin is an entry that
  -- snapshots one of this entry's wallets, or whose entrant's eligibility counts one of the wallets
  -- this entry's counts (the same wallet, verified, on a chain this raffle reads).
  IF v_wallet IS NOT NULL OR v_counted_addresses IS NOT NULL THEN
    v_wallet_reuse := array(
      SELECT t.id FROM (
        SELECT e.id FROM entries e WHERE e.raffle_id = r.id AND e.wallet_snapshot = ANY (coalesce(v_counted_addresses, '{}') || v_wallet)
        UNION
        SELECT e.id FROM unnest(v_counted_chains, v_counted_addresses) c(chain, address)
          JOIN user_wallets w ON w.chain = c.chain AND w.address = c.address AND w.verified AND w.user_id <> p_user_id
          JOIN entries e ON e.raffle_id = r.id AND e.user_id = w.user_id
      ) t ORDER BY t.id LIMIT c_listed_duplicates);
  END IF;
  IF p_ip_hash IS NOT NULL THEN
    v_ip_reuse := array(SELECT e.id FROM entries e WHERE e.raffle_id = r.id AND e.ip_hash = p_ip_hash ORDER BY e.id LIMIT c_listed_duplicates);
  END IF;
  -- An account twin: an entry of another user who linked the same account (linking one account
  -- twice is flagged, not refused; the connections' (provider, account_id) index finds them).
  IF v_discord_account IS NOT NULL THEN
    v_discord_reuse := array(SELECT e.id FROM user_connections c JOIN entries e ON e.raffle_id = r.id AND e.user_id = c.user_id
      WHERE c.provider = 'discord' AND c.account_id = v_discord_account AND c.user_id <> p_user_id ORDER BY e.id LIMIT c_listed_duplicates);
  END IF;
  IF v_x_account IS NOT NULL THEN
    v_x_reuse := array(SELECT e.id FROM user_connections c JOIN entries e ON e.raffle_id = r.id AND e.user_id = c.user_id
      WHERE c.provider = 'x' AND c.account_id = v_x_account AND c.user_id <> p_user_id ORDER BY e.id LIMIT c_listed_duplicates);
  END IF;

  v_flags := '{' || concat_ws(',',
    CASE WHEN cardinality(v_wallet_reuse) > 0 THEN '"walletReuse":' || array_to_json(v_wallet_reuse)::text END,
    CASE WHEN cardinality(v_ip_reuse) > 0 THEN '"ipReuse":' || array_to_json(v_ip_reuse)::text END,
    CASE WHEN cardinality(v_discord_reuse) > 0 THEN '"discordReuse":' || array_to_json(v_discord_reuse)::text END,
    CASE WHEN cardinality(v_x_reuse) > 0 THEN '"xReuse":' || array_to_json(v_x_reuse)::text END) || '}';
  -- The markers of entry-template.ts, each replaced by what only the database knew.
  v_workspace_json := replace(replace(p_workspace_json,
    ',"walletSnapshot":"\u0000walletSnapshot"', coalesce(',"walletSnapshot":' || to_json(nullif(v_wallet, ''))::text, '')),
    '"duplicateFlags":"\u0000duplicateFlags"', '"duplicateFlags":' || v_flags);
  v_owner_json := replace(replace(replace(p_owner_json,
    ',"walletSnapshot":"\u0000walletSnapshot"', coalesce(',"walletSnapshot":' || to_json(nullif(v_wallet, ''))::text, '')),
    '"raffleId":"\u0000raffleId"', '"raffleId":' || to_json(r.id)::text),
    '"raffleSlug":"\u0000raffleSlug"', '"raffleSlug":' || to_json(r.slug)::text);

  INSERT INTO entries (id, raffle_id, user_id, status, source, entry_weight, wallet_snapshot, status_reason,
    duplicate_flags, ip_hash, created_at, updated_at, workspace_json, owner_json)
  VALUES (p_entry_id, r.id, p_user_id, CASE WHEN p_verdict = 'pending' THEN 'pending' ELSE 'valid' END, p_source,
    p_entry_weight::numeric, v_wallet, NULL, v_flags::jsonb, p_ip_hash, v_now, v_now, v_workspace_json, v_owner_json);

  IF jsonb_array_length(p_evaluations) > 0 THEN
    INSERT INTO entry_requirement_evaluations (entry_id, requirement_id, type, label, passed, detail, evidence, evaluated_at)
    SELECT p_entry_id, e ->> 'requirementId', e ->> 'type', e ->> 'label', (e ->> 'passed')::boolean, e ->> 'detail',
      coalesce(e -> 'evidence', '{}'::jsonb), v_now
    FROM jsonb_array_elements(p_evaluations) e;
  END IF;

  -- Event ids: the caller's stem and two base32 characters counting up, so one entry's events
  -- sort in the order they happened, as newIdsInOrder orders them.
  INSERT INTO event_outbox (id, type, user_id, workspace_id, endpoint_id, payload, created_at, trace_context)
  VALUES
    (p_event_stem || '00', 'entry.created', p_user_id, NULL, NULL,
      '{"type":"entry.created","timestamp":"' || p_at || '","data":' || v_owner_json || '}', v_now, p_trace_context),
    (p_event_stem || '01', 'entry.created', NULL, r.workspace_id, NULL,
      '{"type":"entry.created","timestamp":"' || p_at || '","data":' || v_workspace_json || '}', v_now, p_trace_context);
  v_events := 2;

  -- The earlier entries sharing a signal name the new one too (at most c_listed_duplicates per
  -- list: a full list already says "farmed", and rewriting it for every newcomer made one busy IP
  -- rewrite the same rows on each entry). Their stored views are patched, not re-rendered: only
  -- the flags and updatedAt change, and both are the last fields of the views.
  IF cardinality(v_wallet_reuse) + cardinality(v_ip_reuse) + cardinality(v_discord_reuse) + cardinality(v_x_reuse) > 0 THEN
    WITH earlier AS (
      SELECT e.id, e.duplicate_flags AS flags,
        e.id = ANY (v_wallet_reuse) AND coalesce(jsonb_array_length(e.duplicate_flags -> 'walletReuse'), 0) < c_listed_duplicates
          AND NOT coalesce(e.duplicate_flags -> 'walletReuse' ? p_entry_id, false) AS add_wallet,
        e.id = ANY (v_ip_reuse) AND coalesce(jsonb_array_length(e.duplicate_flags -> 'ipReuse'), 0) < c_listed_duplicates
          AND NOT coalesce(e.duplicate_flags -> 'ipReuse' ? p_entry_id, false) AS add_ip,
        e.id = ANY (v_discord_reuse) AND coalesce(jsonb_array_length(e.duplicate_flags -> 'discordReuse'), 0) < c_listed_duplicates
          AND NOT coalesce(e.duplicate_flags -> 'discordReuse' ? p_entry_id, false) AS add_discord,
        e.id = ANY (v_x_reuse) AND coalesce(jsonb_array_length(e.duplicate_flags -> 'xReuse'), 0) < c_listed_duplicates
          AND NOT coalesce(e.duplicate_flags -> 'xReuse' ? p_entry_id, false) AS add_x
      -- Locked in id order: two entries flagging the same earlier ones never deadlock.
      FROM entries e WHERE e.id = ANY (v_wallet_reuse || v_ip_reuse || v_discord_reuse || v_x_reuse) ORDER BY e.id FOR UPDATE
    ), changed AS (
      SELECT x.id, x.flags
        || CASE WHEN x.add_wallet THEN jsonb_build_object('walletReuse', coalesce(x.flags -> 'walletReuse', '[]'::jsonb) || to_jsonb(p_entry_id)) ELSE '{}'::jsonb END
        || CASE WHEN x.add_ip THEN jsonb_build_object('ipReuse', coalesce(x.flags -> 'ipReuse', '[]'::jsonb) || to_jsonb(p_entry_id)) ELSE '{}'::jsonb END
        || CASE WHEN x.add_discord THEN jsonb_build_object('discordReuse', coalesce(x.flags -> 'discordReuse', '[]'::jsonb) || to_jsonb(p_entry_id)) ELSE '{}'::jsonb END
        || CASE WHEN x.add_x THEN jsonb_build_object('xReuse', coalesce(x.flags -> 'xReuse', '[]'::jsonb) || to_jsonb(p_entry_id)) ELSE '{}'::jsonb END AS flags
      FROM earlier x WHERE x.add_wallet OR x.add_ip OR x.add_discord OR x.add_x
    ), rendered AS (
      SELECT c.id, c.flags, '{' || concat_ws(',',
          CASE WHEN c.flags ? 'walletReuse' THEN '"walletReuse":' || (c.flags -> 'walletReuse')::text END,
          CASE WHEN c.flags ? 'ipReuse' THEN '"ipReuse":' || (c.flags -> 'ipReuse')::text END,
          CASE WHEN c.flags ? 'discordReuse' THEN '"discordReuse":' || (c.flags -> 'discordReuse')::text END,
          CASE WHEN c.flags ? 'xReuse' THEN '"xReuse":' || (c.flags -> 'xReuse')::text END) || '}' AS flags_json
      FROM changed c
    ), updated AS (
      UPDATE entries e SET duplicate_flags = x.flags, updated_at = v_now,
        workspace_json = regexp_replace(e.workspace_json, '"duplicateFlags":\{[^{}]*\},"createdAt":("[^"]*"),"updatedAt":"[^"]*"\}$',
          '"duplicateFlags":' || x.flags_json || ',"createdAt":\1,"updatedAt":"' || p_at || '"}'),
        owner_json = regexp_replace(e.owner_json, '"updatedAt":"[^"]*"\}$', '"updatedAt":"' || p_at || '"}')
      FROM rendered x WHERE e.id = x.id
      RETURNING e.id, e.workspace_json
    )
    INSERT INTO event_outbox (id, type, user_id, workspace_id, endpoint_id, payload, created_at, trace_context)
    SELECT p_event_stem || event_id_suffix(1 + row_number() OVER (ORDER BY u.id)::integer), 'entry.updated', NULL, r.workspace_id, NULL,
      '{"type":"entry.updated","timestamp":"' || p_at || '","data":' || u.workspace_json || '}', v_now, p_trace_context
    FROM updated u;
    GET DIAGNOSTICS v_events = ROW_COUNT;
    v_events := v_events + 2;
  END IF;

  IF v_position IS NOT NULL THEN
    -- The spot was freed by a disqualification while the raffle was open: the disqualified win of
    -- this position is `replaced`, as a reroll leaves it, and the workspace hears winner.replaced.
    -- Its views are patched, not re-rendered: only the status changes, and the win gains
    -- replacedAt, which follows its disqualifiedAt.
    WITH replaced AS (
      UPDATE wins w SET status = 'replaced', replaced_at = v_now, updated_at = v_now,
        win_json = regexp_replace(regexp_replace(w.win_json, '"status":"disqualified"', '"status":"replaced"'),
          '("disqualifiedAt":"[^"]*")', '\1,"replacedAt":"' || p_at || '"'),
        winner_json = regexp_replace(w.winner_json, '"status":"disqualified"', '"status":"replaced"')
      WHERE w.raffle_id = r.id AND w.position = v_position AND w.status = 'disqualified'
      RETURNING w.id, w.winner_json
    )
    INSERT INTO event_outbox (id, type, user_id, workspace_id, endpoint_id, payload, created_at, trace_context)
    SELECT p_event_stem || event_id_suffix(v_events - 1 + row_number() OVER (ORDER BY x.id)::integer), 'winner.replaced', NULL, r.workspace_id, NULL,
      '{"type":"winner.replaced","timestamp":"' || p_at || '","data":' || x.winner_json || '}', v_now, p_trace_context
    FROM replaced x;
    GET DIAGNOSTICS v_replaced = ROW_COUNT;
    v_events := v_events + v_replaced;

    -- The win, its views filled in from the caller's template (win-template.ts).
    v_identity := winner_identity_json(p_user_id);
    v_win_json := fill_win_template(p_win_json, v_position, v_wallet, v_identity, r);
    v_winner_json := fill_win_template(p_winner_json, v_position, v_wallet, v_identity, r);
    INSERT INTO wins (id, raffle_id, entry_id, user_id, position, source, status, wallet_snapshot, identity_snapshot,
      delivery_status, delivery_note, selected_at, finalized_at, disqualified_at, replaced_at, delivered_at,
      created_at, updated_at, win_json, winner_json)
    VALUES (p_win_id, r.id, p_entry_id, p_user_id, v_position, 'fcfs', 'selected', v_wallet, v_identity::jsonb,
      'pending', NULL, v_now, NULL, NULL, NULL, NULL, v_now, v_now, v_win_json, v_winner_json);
    INSERT INTO event_outbox (id, type, user_id, workspace_id, endpoint_id, payload, created_at, trace_context)
    VALUES
      (p_event_stem || event_id_suffix(v_events), 'win.selected', p_user_id, NULL, NULL,
        '{"type":"win.selected","timestamp":"' || p_at || '","data":' || v_win_json || '}', v_now, p_trace_context),
      (p_event_stem || event_id_suffix(v_events + 1), 'winner.selected', NULL, r.workspace_id, NULL,
        '{"type":"winner.selected","timestamp":"' || p_at || '","data":' || v_winner_json || '}', v_now, p_trace_context);
  END IF;

  IF p_idempotency_api_key_id IS NOT NULL THEN
    -- The entry and the response its Idempotency-Key replays commit together.
    UPDATE idempotency_records SET state = 'completed', response_status = 201, response_body = v_owner_json
    WHERE api_key_id = p_idempotency_api_key_id AND key = p_idempotency_key AND state = 'in_progress';
  END IF;
  IF p_notify THEN
    PERFORM pg_notify('raffle_outbox', '');
  END IF;

  RETURN QUERY SELECT 'entered', NULL::text, row_to_json(r), v_wallet, v_flags, v_workspace_json, v_owner_json, NULL::jsonb, NULL::text, r.workspace_id,
    r.mechanic, v_position, v_identity, v_win_json, v_winner_json, v_may_close;
END
$$;
