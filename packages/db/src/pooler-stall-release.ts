import { performance } from 'node:perf_hooks';

/** How often the pool's unanswered time is looked at; a comparison, so cheap enough to run for good. */
const CHECK_INTERVAL_MS = 100;

export type PoolerStallReleaseOptions = {
  /** How long the pool's queries have gone without an answer (`boundConnectionWaits`). */
  unansweredForMs: () => number;
  /** Past this with no answer the pooler is asked whether it can reach the server at all. */
  timeoutMs: number;
  /** True when the pooler refuses a fresh client (`poolerRefuses`): it has no server connection. */
  poolerRefuses: () => Promise<boolean>;
  /** Closes the pool's connections to the pooler (`PoolerSockets.closeAll`). */
  release: () => void;
  /** Told after each release, for the log. */
  onRelease?: (unansweredMs: number) => void;
};

/**
 * Behind a transaction pooler (issue 34, decision 0041) a statement is on a connection the moment
 * it is sent, so the pool's wait bounds (`boundConnectionWaits`) never see it wait: PgBouncer
 * queues it until it has a server connection, and while Postgres is down that is until Postgres
 * returns (or `query_wait_timeout`), with everything postgres.js pipelines on the same connection
 * queued behind it. Meanwhile the requests hang instead of answering 503.
 *
 * So: when the pool's queries have had no answer for `timeoutMs`, the pooler is probed on a fresh
 * connection. PgBouncer refuses a fresh client only while its last login to the server failed and
 * it holds no server connection for the pool: then none of the pool's statements is running, each
 * one waits in the pooler's queue. Closing the pool's connections fails them at once (503 with
 * Retry-After) and PgBouncer drops what they had queued, so a write whose caller was told 503 is
 * never run later. A pooler that answers or queues the probe is busy, not cut off: the queries
 * keep waiting (its `query_wait_timeout` bounds that). Returns a stop function.
 */
export function releaseQueriesStuckInPooler(options: PoolerStallReleaseOptions): () => void {
  let probing = false;
  let probedAt = -Infinity;
  let releasedAt = -Infinity;
  const check = async () => {
    const unansweredMs = options.unansweredForMs();
    const now = performance.now();
    // The connections a release reopens get `timeoutMs` to log in and be answered (refused, by
    // PgBouncer, while the server is still gone) before they are looked at again: closed every
    // check, they would never get as far as sending what waits for them. A long statement is a
    // stall too, so the pooler is asked at most once per `timeoutMs` while one runs.
    if (probing || unansweredMs < options.timeoutMs || now - releasedAt < options.timeoutMs || now - probedAt < options.timeoutMs) return;
    probing = true;
    probedAt = now;
    try {
      if (!(await options.poolerRefuses())) return;
      releasedAt = performance.now();
      options.release();
      options.onRelease?.(unansweredMs);
    } finally {
      probing = false;
    }
  };
  // A check never keeps the process alive on its own.
  const timer = setInterval(() => void check().catch(() => undefined), CHECK_INTERVAL_MS).unref();
  return () => clearInterval(timer);
}
