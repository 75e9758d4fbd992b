import { describe, expect, it } from 'vitest';
import { allowlistRefreshMs } from '../src/pages/raffles/allowlist/allowlist-status.js';

const NOW = Date.parse('2030-01-01T12:00:00Z');
const inSeconds = (s: number) => new Date(NOW + s * 1000).toISOString();

describe('when the allowlist section fetches the list again', () => {
  it('polls while a version builds, and stops once it is published or there is no allowlist', () => {
    expect(allowlistRefreshMs({ status: 'building', walletDeadline: null }, NOW)).toBe(2_000);
    expect(allowlistRefreshMs({ status: 'published', walletDeadline: null }, NOW)).toBe(false);
    expect(allowlistRefreshMs({ status: 'not_applicable', walletDeadline: null }, NOW)).toBe(false);
    expect(allowlistRefreshMs(undefined, NOW)).toBe(false);
  });

  it('looks again just after the wallet deadline, or every 30 s while it is far', () => {
    expect(allowlistRefreshMs({ status: 'awaiting_wallets', walletDeadline: inSeconds(5) }, NOW)).toBe(6_000);
    expect(allowlistRefreshMs({ status: 'awaiting_wallets', walletDeadline: inSeconds(3600) }, NOW)).toBe(30_000);
    // Past the deadline, the build is queued on the scheduler's next pass.
    expect(allowlistRefreshMs({ status: 'awaiting_wallets', walletDeadline: inSeconds(-10) }, NOW)).toBe(1_000);
  });

  it('waits for a finalize made elsewhere at a slow pace', () => {
    expect(allowlistRefreshMs({ status: 'awaiting_finalize', walletDeadline: null }, NOW)).toBe(30_000);
  });
});
