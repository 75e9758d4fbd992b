-- Issue 26, decision 0034: the duplicate lookups (enter_raffle, readEntrantAdmission) find an
-- entry's twins by equality on its wallet or IP, which a null never matches, so the two signal
-- indexes keep only the entries that carry the signal. An entrant without a wallet (most) then
-- costs one index insert less, and the one that went to the busiest page: every such entry of a
-- raffle had the same key (raffle_id, null), so concurrent entries queued on one posting list.
DROP INDEX "entries_wallet_idx";--> statement-breakpoint
DROP INDEX "entries_ip_idx";--> statement-breakpoint
CREATE INDEX "entries_wallet_idx" ON "entries" USING btree ("raffle_id","wallet_snapshot") WHERE "entries"."wallet_snapshot" is not null;--> statement-breakpoint
CREATE INDEX "entries_ip_idx" ON "entries" USING btree ("raffle_id","ip_hash") WHERE "entries"."ip_hash" is not null;
--> statement-breakpoint
-- Issue 26, decision 0034: enter_raffle of migration 0015 with three statements less per entry
-- (plpgsql runs each embedded statement through the executor: a start, a plan check, a snapshot).
-- Only these edits; the rules and their order are 0015's.
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
  p_idempotency_key text
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
  workspace_id text
) LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  -- Flags list at most this many other entries: enough to judge, bounded for a farmed IP.
  c_listed_duplicates CONSTANT integer := 50;
  v_now timestamptz := p_at::timestamptz;
  r raffles%ROWTYPE;
  v_existing text;
  v_wallet text;
  v_fingerprint text;
  v_wallet_reuse text[] := '{}';
  v_ip_reuse text[] := '{}';
  v_flags text;
  v_workspace_json text;
  v_owner_json text;
  v_events integer := 0;
BEGIN
  -- Visible as on the personal raffle routes: published, and public or unlisted, or private to a
  -- workspace the user belongs to. A slug names one raffle only among the published. The row is
  -- read whole here: one statement less than reading its id, then the row.
  SELECT x.* INTO r FROM raffles x
  WHERE (x.id = p_raffle_id OR (x.slug = p_raffle_slug AND x.published_at IS NOT NULL))
    AND x.status IN ('scheduled', 'open', 'closed', 'drawn', 'finalized')
    AND (x.visibility IN ('public', 'unlisted')
      OR EXISTS (SELECT 1 FROM workspace_members m WHERE m.workspace_id = x.workspace_id AND m.user_id = p_user_id));
  IF r.id IS NULL THEN
    RETURN QUERY SELECT 'raffle_not_found', NULL::text, NULL::json, NULL::text, NULL::text, NULL::text, NULL::text, NULL::jsonb, NULL::text, NULL::text;
    RETURN;
  END IF;

  -- Entries of collection raffles count the valid entries: they take the row one at a time. The
  -- others share it: they run in parallel, yet a close (which takes it exclusively) never commits
  -- between an entry's check and its commit. A raffle that is not open is refused unlocked, so the
  -- rush after an FCFS raffle filled is answered side by side instead of queueing on the row.
  IF r.mechanic = 'fcfs' THEN
    RETURN QUERY SELECT 'fcfs', NULL::text, NULL::json, NULL::text, NULL::text, NULL::text, NULL::text, NULL::jsonb, NULL::text, NULL::text;
    RETURN;
  END IF;
  IF r.status = 'open' THEN
    IF r.mechanic = 'collection' THEN
      SELECT * INTO r FROM raffles x WHERE x.id = r.id FOR NO KEY UPDATE;
    ELSE
      SELECT * INTO r FROM raffles x WHERE x.id = r.id FOR SHARE;
    END IF;
  END IF;

  IF r.status <> 'open' OR (r.ends_at IS NOT NULL AND r.ends_at <= v_now) THEN
    RETURN QUERY SELECT 'raffle_not_open', NULL::text, row_to_json(r), NULL::text, NULL::text, NULL::text, NULL::text, NULL::jsonb, NULL::text, NULL::text;
    RETURN;
  END IF;

  SELECT e.id INTO v_existing FROM entries e WHERE e.raffle_id = r.id AND e.user_id = p_user_id;
  IF v_existing IS NOT NULL THEN
    RETURN QUERY SELECT 'already_entered', v_existing, NULL::json, NULL::text, NULL::text, NULL::text, NULL::text, NULL::jsonb, NULL::text, NULL::text;
    RETURN;
  END IF;

  -- The verdicts were evaluated for the requirements the caller had planned; other requirements
  -- (a plan cached stale, or none yet) are sent back for it to evaluate and call again.
  v_fingerprint := CASE WHEN r.requirements = '[]'::jsonb THEN NULL ELSE md5(r.requirements::text) END;
  IF v_fingerprint IS DISTINCT FROM p_requirements_fingerprint THEN
    RETURN QUERY SELECT 'requirements_changed', NULL::text, NULL::json, NULL::text, NULL::text, NULL::text, NULL::text,
      r.requirements, v_fingerprint, r.workspace_id;
    RETURN;
  END IF;
  IF p_verdict = 'failed' THEN
    RETURN QUERY SELECT 'requirements_not_met', NULL::text, NULL::json, NULL::text, NULL::text, NULL::text, NULL::text, NULL::jsonb, NULL::text, NULL::text;
    RETURN;
  END IF;
  -- Nested, not `AND`: a condition with a subquery costs an executor start even when it short-circuits.
  IF r.mechanic = 'collection' THEN
    IF (SELECT count(*) FROM entries e WHERE e.raffle_id = r.id AND e.status = 'valid') >= r.spots THEN
      RETURN QUERY SELECT 'raffle_full', NULL::text, row_to_json(r), NULL::text, NULL::text, NULL::text, NULL::text, NULL::jsonb, NULL::text, NULL::text;
      RETURN;
    END IF;
  END IF;

  -- The wallet the entry snapshots on the raffle's chain: a verified one first, then the oldest.
  SELECT w.address INTO v_wallet FROM user_wallets w WHERE w.user_id = p_user_id AND w.chain = r.chain
  ORDER BY w.verified DESC, w.created_at LIMIT 1;

  -- Entries sharing a signal queue on its advisory lock, wallet before IP (one order, no
  -- deadlock), so two that arrive at once see each other; unrelated entries never wait.
  IF v_wallet IS NOT NULL THEN
    PERFORM pg_advisory_xact_lock(hashtextextended(r.id || ':w:' || v_wallet, 0));
  END IF;
  IF p_ip_hash IS NOT NULL THEN
    PERFORM pg_advisory_xact_lock(hashtextextended(r.id || ':i:' || p_ip_hash, 0));
  END IF;
  -- After the locks: a new statement, a new snapshot, which sees every entry committed before them.
  -- A null signal has no twins (equality never matches it): no lookup.
  IF v_wallet IS NOT NULL THEN
    v_wallet_reuse := array(SELECT e.id FROM entries e WHERE e.raffle_id = r.id AND e.wallet_snapshot = v_wallet ORDER BY e.id LIMIT c_listed_duplicates);
  END IF;
  IF p_ip_hash IS NOT NULL THEN
    v_ip_reuse := array(SELECT e.id FROM entries e WHERE e.raffle_id = r.id AND e.ip_hash = p_ip_hash ORDER BY e.id LIMIT c_listed_duplicates);
  END IF;

  v_flags := '{' || concat_ws(',',
    CASE WHEN cardinality(v_wallet_reuse) > 0 THEN '"walletReuse":' || array_to_json(v_wallet_reuse)::text END,
    CASE WHEN cardinality(v_ip_reuse) > 0 THEN '"ipReuse":' || array_to_json(v_ip_reuse)::text END) || '}';
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
  IF cardinality(v_wallet_reuse) + cardinality(v_ip_reuse) > 0 THEN
    WITH earlier AS (
      SELECT e.id, e.duplicate_flags AS flags,
        e.id = ANY (v_wallet_reuse) AND coalesce(jsonb_array_length(e.duplicate_flags -> 'walletReuse'), 0) < c_listed_duplicates
          AND NOT coalesce(e.duplicate_flags -> 'walletReuse' ? p_entry_id, false) AS add_wallet,
        e.id = ANY (v_ip_reuse) AND coalesce(jsonb_array_length(e.duplicate_flags -> 'ipReuse'), 0) < c_listed_duplicates
          AND NOT coalesce(e.duplicate_flags -> 'ipReuse' ? p_entry_id, false) AS add_ip
      -- Locked in id order: two entries flagging the same earlier ones never deadlock.
      FROM entries e WHERE e.id = ANY (v_wallet_reuse || v_ip_reuse) ORDER BY e.id FOR UPDATE
    ), changed AS (
      SELECT x.id, x.flags
        || CASE WHEN x.add_wallet THEN jsonb_build_object('walletReuse', coalesce(x.flags -> 'walletReuse', '[]'::jsonb) || to_jsonb(p_entry_id)) ELSE '{}'::jsonb END
        || CASE WHEN x.add_ip THEN jsonb_build_object('ipReuse', coalesce(x.flags -> 'ipReuse', '[]'::jsonb) || to_jsonb(p_entry_id)) ELSE '{}'::jsonb END AS flags
      FROM earlier x WHERE x.add_wallet OR x.add_ip
    ), rendered AS (
      SELECT c.id, c.flags, '{' || concat_ws(',',
          CASE WHEN c.flags ? 'walletReuse' THEN '"walletReuse":' || (c.flags -> 'walletReuse')::text END,
          CASE WHEN c.flags ? 'ipReuse' THEN '"ipReuse":' || (c.flags -> 'ipReuse')::text END) || '}' AS flags_json
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

  IF p_idempotency_api_key_id IS NOT NULL THEN
    -- The entry and the response its Idempotency-Key replays commit together.
    UPDATE idempotency_records SET state = 'completed', response_status = 201, response_body = v_owner_json
    WHERE api_key_id = p_idempotency_api_key_id AND key = p_idempotency_key AND state = 'in_progress';
  END IF;
  IF p_notify THEN
    PERFORM pg_notify('raffle_outbox', '');
  END IF;

  RETURN QUERY SELECT 'entered', NULL::text, row_to_json(r), v_wallet, v_flags, v_workspace_json, v_owner_json, NULL::jsonb, NULL::text, r.workspace_id;
END
$$;
