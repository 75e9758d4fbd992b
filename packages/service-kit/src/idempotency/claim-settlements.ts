import { isConnectionError } from '@raffle/db';
import type { FastifyBaseLogger } from 'fastify';
import type { HeldIdempotencyKey, IdempotencyScope, IdempotencyStore, StoredResponse } from './idempotency-store.js';

/** How a request that held a key leaves it: with the response to replay, or released (`null`) so a retry runs. */
export type ClaimSettlement = { held: HeldIdempotencyKey; response: StoredResponse | null };

/** Between background passes while settlements wait for the database: it is found again within this of its return. */
const RETRY_INTERVAL_MS = 250;
/**
 * A settlement still unwritten after this long is given up (logged): the database has been away
 * for ten minutes, and its claim is taken over as abandoned once a retry meets it.
 */
const GIVE_UP_AFTER_MS = 10 * 60_000;
/** Claims held when an outage began, at most; past this the oldest is given up the same way. */
const MAX_PENDING = 10_000;

type Pending = ClaimSettlement & { since: number; failures: number; attempt: Promise<boolean> | null };

const pendingKey = ({ apiKeyId, key, claimToken }: HeldIdempotencyKey) => `${apiKeyId}\u0000${key}\u0000${claimToken}`;

/**
 * Settles the claims of requests that are over: stores the response a retry replays, or releases
 * the key. When the database cannot be reached (the very failure that ended many of these
 * requests), the settlement is kept and retried in the background until it lands, one probe a pass
 * while the database stays away, so a key is free again within moments of its return instead of
 * answering 409 IDEMPOTENCY_KEY_IN_PROGRESS until taken over as abandoned a minute later.
 * Settlements are per request (by claim token), so writing one late can never touch a claim another
 * request has taken over since. They live in this instance's memory: one lost with the process
 * falls back to the abandonment window.
 */
export function createClaimSettlements(store: IdempotencyStore, log: FastifyBaseLogger) {
  const pending = new Map<string, Pending>();
  let timer: NodeJS.Timeout | null = null;
  let closed = false;

  const write = ({ held, response }: ClaimSettlement) => (response ? store.complete(held, response) : store.release(held));

  function forget(entry: Pending) {
    const key = pendingKey(entry.held);
    if (pending.get(key) === entry) pending.delete(key);
  }

  /** One try; resolves true once the settlement is done with (written, or failed for good), false while the database is away. */
  function attempt(entry: Pending): Promise<boolean> {
    entry.attempt ??= write(entry)
      .then(
        () => {
          forget(entry);
          if (entry.failures > 0) log.info({ afterMs: Date.now() - entry.since }, 'settled an idempotency key once the database was back');
          return true;
        },
        (error: unknown) => {
          if (isConnectionError(error)) {
            if (entry.failures++ === 0) log.warn({ err: error }, 'could not settle an idempotency key; retrying until the database is back');
            return false;
          }
          forget(entry);
          log.error({ err: error }, 'could not settle an idempotency key; it stays in progress until taken over as abandoned');
          return true;
        },
      )
      .finally(() => {
        entry.attempt = null;
      });
    return entry.attempt;
  }

  function schedulePass() {
    if (closed || timer || pending.size === 0) return;
    timer = setTimeout(pass, RETRY_INTERVAL_MS);
    timer.unref();
  }

  /** Oldest first; the first that still cannot reach the database ends the pass, so an outage costs one query a pass. */
  async function pass() {
    timer = null;
    if (closed) return;
    for (const entry of [...pending.values()]) {
      if (Date.now() - entry.since > GIVE_UP_AFTER_MS) {
        forget(entry);
        log.error({ waitedMs: Date.now() - entry.since }, 'gave up settling an idempotency key; it stays in progress until taken over as abandoned');
        continue;
      }
      if (!(await attempt(entry))) break;
    }
    schedulePass();
  }

  function register(settlement: ClaimSettlement): Pending {
    const entry: Pending = { ...settlement, since: Date.now(), failures: 0, attempt: null };
    if (pending.size >= MAX_PENDING) {
      const [oldest] = pending.values();
      forget(oldest!);
      log.error('too many idempotency keys waiting to be settled; the oldest stays in progress until taken over as abandoned');
    }
    pending.set(pendingKey(settlement.held), entry);
    return entry;
  }

  /**
   * Settles a claim now, or as soon as the database allows. The promise resolves after the first
   * try (the request's answer waits for it, so a retry finds the key settled) and never rejects.
   */
  function settle(settlement: ClaimSettlement): Promise<void> {
    return attempt(register(settlement)).then((done) => {
      if (!done) schedulePass();
    });
  }

  /**
   * Settles a claim on the next background pass, without a try now: for requests the database
   * has just failed, whose answer should not wait on another query to it (each may wait for a
   * connection that is not coming), nor add one to an outage's queue. A retry of the key on this
   * instance finds it registered all the same (see `land`).
   */
  function settleLater(settlement: ClaimSettlement): void {
    register(settlement);
    schedulePass();
  }

  const waitingFor = (scope: IdempotencyScope) =>
    [...pending.values()].filter((entry) => entry.held.apiKeyId === scope.apiKeyId && entry.held.key === scope.key);

  /** Whether this instance still has a claim of the key to settle (a linear scan: the list is empty but in an outage's wake). */
  const holds = (scope: IdempotencyScope) => pending.size > 0 && waitingFor(scope).length > 0;

  /**
   * Tries now whatever this instance still has to settle for the key: a retry that found the key
   * in progress may be meeting its own earlier attempt's claim. Never rejects; what still cannot
   * be written stays for the background passes.
   */
  async function land(scope: IdempotencyScope): Promise<void> {
    await Promise.all(waitingFor(scope).map(attempt));
  }

  function close() {
    closed = true;
    if (timer) clearTimeout(timer);
    timer = null;
    if (pending.size > 0) log.warn({ unsettled: pending.size }, 'closing with idempotency keys unsettled; they are taken over as abandoned');
  }

  return { settle, settleLater, holds, land, close };
}

export type ClaimSettlements = ReturnType<typeof createClaimSettlements>;
