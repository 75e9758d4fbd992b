import type { SchedulerPass } from '@raffle/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { Counter } from 'prom-client';

/** What fails when a whole pass fails (its first query, say): no raffle was picked yet. */
const WHOLE_PASS = 'pass';

export type SchedulerFailures = {
  /** A transition (raffleId) or a whole pass (null) failed. */
  failed(raffleId: string | null, error: unknown): void;
  /** A pass completed: whatever it did not fail again has recovered. */
  passed(pass: SchedulerPass): void;
};

/**
 * The scheduler retries a failed transition at every pass (about every second), so a table lock or
 * a database outage fails it at every pass for as long as it lasts. Each failure counts in
 * `scheduler_failed_transitions_total`, which the alert reads; the log has one error line when a
 * raffle (or the whole pass) starts failing, with the first error, and one line when it recovers,
 * with how many failures and how long — not a line every pass.
 */
export function schedulerFailures(log: FastifyBaseLogger, counter: Counter): SchedulerFailures {
  const failing = new Map<string, { since: number; failures: number }>();
  return {
    failed(raffleId, error) {
      counter.inc();
      const key = raffleId ?? WHOLE_PASS;
      const streak = failing.get(key);
      if (streak) {
        streak.failures += 1;
        return;
      }
      failing.set(key, { since: Date.now(), failures: 1 });
      log.error(
        { err: error, raffleId },
        'raffle scheduler transition failed; retried at every pass, further failures are counted in scheduler_failed_transitions_total until it recovers',
      );
    },
    passed(pass) {
      for (const [key, streak] of failing) {
        if (key !== WHOLE_PASS && pass.failed.some((failure) => failure.raffleId === key)) continue;
        failing.delete(key);
        log.info({ raffleId: key === WHOLE_PASS ? null : key, failures: streak.failures, failingForMs: Date.now() - streak.since }, 'raffle scheduler transition recovered');
      }
    },
  };
}
