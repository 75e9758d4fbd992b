import { afterEach, describe, expect, it } from 'vitest';
import { releaseQueriesStuckInPooler } from '../src/pooler-stall-release.js';

/**
 * When the pool behind a transaction pooler is released (decision 0041): only when its queries
 * went unanswered past the bound *and* the pooler refuses a fresh client. A pool that is answered,
 * or whose pooler is only busy, is never touched. (Against a real PgBouncer:
 * packages/service-kit/test/pgbouncer-outage.test.ts and the services' outage suites.)
 */

const TIMEOUT_MS = 50;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let stop: (() => void) | undefined;
afterEach(() => stop?.());

function watch(unansweredMs: number, refuses: boolean) {
  const seen = { probes: 0, releases: 0, reported: [] as number[] };
  stop = releaseQueriesStuckInPooler({
    unansweredForMs: () => unansweredMs,
    timeoutMs: TIMEOUT_MS,
    poolerRefuses: async () => {
      seen.probes++;
      return refuses;
    },
    release: () => seen.releases++,
    onRelease: (ms) => seen.reported.push(ms),
  });
  return seen;
}

describe('releaseQueriesStuckInPooler', () => {
  it('never asks the pooler while the pool is answered in time', async () => {
    const seen = watch(TIMEOUT_MS - 1, true);
    await sleep(TIMEOUT_MS * 8);
    expect(seen).toEqual({ probes: 0, releases: 0, reported: [] });
  });

  it('keeps waiting when the pooler answers or queues a fresh client (busy, not cut off)', async () => {
    const seen = watch(TIMEOUT_MS * 10, false);
    await expect.poll(() => seen.probes).toBeGreaterThan(1);
    expect(seen.releases).toBe(0);
  });

  it('releases the pool when its queries went unanswered and the pooler refuses a fresh client', async () => {
    const seen = watch(TIMEOUT_MS * 10, true);
    await expect.poll(() => seen.releases).toBeGreaterThan(0);
    expect(seen.reported[0]).toBe(TIMEOUT_MS * 10);
  });
});
