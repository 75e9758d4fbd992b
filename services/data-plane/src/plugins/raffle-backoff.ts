/**
 * The raffles whose pending entries the resolver leaves alone for a while after their chain read
 * failed: each raffle's wait doubles with every failed pass (from `firstMs`, at most `maxMs`) and
 * ends at its first read that succeeds. Per raffle, so one tenant's failing gate costs only its
 * own entries their wait.
 */
export class RaffleBackoff {
  private readonly raffles = new Map<string, { until: number; waitMs: number }>();

  constructor(
    private readonly firstMs: number,
    private readonly maxMs: number,
  ) {}

  /**
   * The raffles still waiting at `now` (the others' waits are over: they are read again). A wait
   * over for longer than the longest wait is forgotten: its raffle was settled elsewhere, closed
   * or cancelled, and is no longer claimed.
   */
  waiting(now: number): string[] {
    const waiting: string[] = [];
    for (const [raffleId, wait] of this.raffles) {
      if (wait.until > now) waiting.push(raffleId);
      else if (now - wait.until > this.maxMs) this.raffles.delete(raffleId);
    }
    return waiting;
  }

  /** After a pass: the raffles it read with success wait no more, the silent ones wait longer. */
  record(pass: { silentRaffleIds: readonly string[]; settledRaffleIds: readonly string[] }, now: number): void {
    const silent = new Set(pass.silentRaffleIds);
    for (const raffleId of silent) {
      const previous = this.raffles.get(raffleId);
      const waitMs = previous ? Math.min(previous.waitMs * 2, this.maxMs) : this.firstMs;
      this.raffles.set(raffleId, { until: now + waitMs, waitMs });
    }
    for (const raffleId of pass.settledRaffleIds) this.raffles.delete(raffleId);
  }
}
