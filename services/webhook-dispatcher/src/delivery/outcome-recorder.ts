import { isConnectionError, isTransientTransactionFailure, type Sql } from '@raffle/db';
import type { FastifyBaseLogger as Logger } from 'fastify';
import type { AttemptOutcome } from './attempt-outcome.js';
import { writeOutcomeBatch } from './outcome-batch.js';

export type RecorderOptions = {
  sql: Sql;
  log: Logger;
  autoDisableAfterMs: number;
  maxBatch?: number;
  flushDelayMs?: number;
  /** Batches written at once; one waiting out a failure leaves the others their turn. */
  maxConcurrentWrites?: number;
};

/** Buffered outcomes and the promise their batch settles (written, or dropped) with. */
type Pending = { outcomes: AttemptOutcome[]; settled: Promise<void>; settle: () => void };

const pending = (): Pending => {
  let settle!: () => void;
  const settled = new Promise<void>((resolve) => (settle = resolve));
  return { outcomes: [], settled, settle };
};

/** Postgres away, or a deadlock it broke: any batch would have failed; this one is written again. */
const failsAnyBatch = (error: unknown) => isConnectionError(error) || isTransientTransactionFailure(error);

const retryDelayMs = (tries: number) => Math.min(5000, 200 * 2 ** tries);

/**
 * Writes attempts in batches (outcome-batch.ts): batching is what lets thousands of deliveries a
 * second cost a few statements. What a failure means decides what follows:
 * - Postgres unreachable, or a deadlock or serialization failure: the batch is written again after
 *   a backoff, for as long as it takes (the attempts happened; their record is the retry schedule).
 * - Anything else is the batch's own (a value Postgres refuses): written again it would fail again,
 *   forever. The batch is split in halves, each written on its own, down to the one outcome that
 *   fails, which is dropped with one log line. Its delivery stays pending under its lease, so it
 *   is sent again once the lease runs out: twice rather than never.
 * Batches are written side by side, up to `maxConcurrentWrites`: one waiting out a failure of its
 * own holds no other (they used to form one chain, and one bad batch held every later outcome
 * unrecorded while their leases ran out and sent them again). Two batches may so land out of
 * order; the only state they share is an endpoint's failure streak, which the next outcome puts
 * right.
 */
export function createOutcomeRecorder(options: RecorderOptions) {
  const maxBatch = options.maxBatch ?? 500;
  const flushDelayMs = options.flushDelayMs ?? 10;
  // Two: one batch waiting out a failure of its own (a connection that died under it) leaves the
  // next its turn, while the pool keeps connections for fan-out and the poll.
  const maxConcurrentWrites = options.maxConcurrentWrites ?? 2;
  let buffer = pending();
  let timer: NodeJS.Timeout | null = null;
  const writing = new Set<Promise<void>>();
  let writers = 0;
  const slotWaiters: (() => void)[] = [];
  const disabledListeners: ((endpointId: string) => void)[] = [];

  const withWriteSlot = async <T>(fn: () => Promise<T>): Promise<T> => {
    if (writers >= maxConcurrentWrites) await new Promise<void>((resolve) => slotWaiters.push(resolve));
    else writers += 1;
    try {
      return await fn();
    } finally {
      // The slot passes straight to a waiter, if any, so the count stays right.
      const next = slotWaiters.shift();
      if (next) next();
      else writers -= 1;
    }
  };

  /** Writes the batch, again and again while the failure is not the batch's fault; throws when it is. */
  const writeRetrying = async (batch: readonly AttemptOutcome[]): Promise<void> => {
    for (let tries = 0; ; tries++) {
      try {
        const disabled = await writeOutcomeBatch(options.sql, batch, options.autoDisableAfterMs);
        for (const id of disabled) for (const listener of disabledListeners) listener(id);
        return;
      } catch (error) {
        if (!failsAnyBatch(error)) throw error;
        options.log.warn({ err: error, attempts: batch.length, tries: tries + 1 }, 'recording delivery attempts failed; retrying');
        await new Promise((resolve) => setTimeout(resolve, retryDelayMs(tries)));
      }
    }
  };

  /** Writes the batch, isolating and dropping the outcomes Postgres refuses. */
  const writeIsolating = async (batch: readonly AttemptOutcome[]): Promise<void> => {
    try {
      await writeRetrying(batch);
    } catch (error) {
      if (batch.length === 1) {
        const [outcome] = batch;
        options.log.error(
          { err: error, deliveryId: outcome!.deliveryId, endpointId: outcome!.endpointId, attemptNumber: outcome!.attemptNumber },
          'a delivery attempt could not be recorded; dropped (its lease sends the delivery again)',
        );
        return;
      }
      const half = Math.ceil(batch.length / 2);
      await writeIsolating(batch.slice(0, half));
      await writeIsolating(batch.slice(half));
    }
  };

  const flush = (): Promise<void> => {
    if (timer) {
      clearTimeout(timer);
      timer = null;
    }
    if (buffer.outcomes.length > 0) {
      const batch = buffer;
      buffer = pending();
      const written: Promise<void> = withWriteSlot(() => writeIsolating(batch.outcomes))
        .catch((error: unknown) => options.log.error({ err: error, attempts: batch.outcomes.length }, 'recording delivery attempts failed; dropped'))
        .finally(() => {
          writing.delete(written);
          batch.settle();
        });
      writing.add(written);
    }
    return Promise.all(writing).then(() => undefined);
  };

  return {
    /** Buffers the outcome; resolves once it is written, or dropped as one Postgres refuses. */
    record(outcome: AttemptOutcome): Promise<void> {
      const { settled } = buffer;
      buffer.outcomes.push(outcome);
      if (buffer.outcomes.length >= maxBatch) void flush();
      else if (!timer) timer = setTimeout(() => void flush(), flushDelayMs);
      return settled;
    },
    /** Writes what is buffered; resolves once every batch so far has settled. */
    flush,
    onEndpointDisabled(listener: (endpointId: string) => void) {
      disabledListeners.push(listener);
    },
  };
}

export type OutcomeRecorder = ReturnType<typeof createOutcomeRecorder>;
