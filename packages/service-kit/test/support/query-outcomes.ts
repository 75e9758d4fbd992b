import { performance } from 'node:perf_hooks';

/** What a workload child prints on its last line, after `SUMMARY `. */
export type OutcomeSummary = {
  sent: number;
  resolved: number;
  /** Rejections by their `code` (`none` when the error had none). */
  rejectedByCode: Record<string, number>;
  /** A few rejections' messages per code, to show in a failed assertion. */
  sampleMessages: Record<string, string[]>;
  /** Queries neither resolved nor rejected when the child gave up waiting. */
  pending: number;
  /** The longest any query took to be rejected. */
  maxRejectionMs: number;
  /** Epoch ms of each rejection that followed a success (or the start), and of each success that followed a rejection. */
  transitions: { at: number; to: 'failing' | 'serving' }[];
  acknowledgedWrites: number;
};

/**
 * Tracks every query a workload issues: whether it settled, how, and how long a rejection took.
 * Success/failure transitions are kept (not every query) so a long run stays small.
 */
export class QueryOutcomes {
  private readonly summary: OutcomeSummary = {
    sent: 0,
    resolved: 0,
    rejectedByCode: {},
    sampleMessages: {},
    pending: 0,
    maxRejectionMs: 0,
    transitions: [],
    acknowledgedWrites: 0,
  };
  private readonly inFlight = new Set<Promise<unknown>>();
  private failing = false;

  track<T>(query: PromiseLike<T>, options: { write?: boolean } = {}): Promise<T | undefined> {
    const startedAt = performance.now();
    this.summary.sent++;
    const settled = Promise.resolve(query).then(
      (value) => {
        this.summary.resolved++;
        if (options.write) this.summary.acknowledgedWrites++;
        if (this.failing) this.summary.transitions.push({ at: Date.now(), to: 'serving' });
        this.failing = false;
        return value;
      },
      (error: unknown) => {
        const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
        const key = typeof code === 'string' ? code : 'none';
        this.summary.rejectedByCode[key] = (this.summary.rejectedByCode[key] ?? 0) + 1;
        const samples = (this.summary.sampleMessages[key] ??= []);
        if (samples.length < 3) samples.push(String(message));
        this.summary.maxRejectionMs = Math.max(this.summary.maxRejectionMs, performance.now() - startedAt);
        if (!this.failing) this.summary.transitions.push({ at: Date.now(), to: 'failing' });
        this.failing = true;
        return undefined;
      },
    );
    this.inFlight.add(settled);
    void settled.then(() => this.inFlight.delete(settled));
    return settled;
  }

  /** Waits until every tracked query settled, or `timeoutMs`; the summary counts what is left. */
  async settle(timeoutMs: number): Promise<OutcomeSummary> {
    const deadline = performance.now() + timeoutMs;
    while (this.inFlight.size > 0 && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return { ...this.summary, pending: this.inFlight.size };
  }
}
