import type { Sql } from '@raffle/db';
import type { LedgerEndpoint } from './delivery-ledger.js';

export type DelaySummary = { pairs: number; p50Ms: number; p99Ms: number; maxMs: number; overMs: (ms: number) => number };

/**
 * How late each (endpoint, event) pair arrived: from its event's commit (the outbox row's
 * created_at) to the first receipt at the endpoint's sink. Both clocks are this machine's, so
 * the difference is what a receiver would see as the webhook's delay.
 */
export async function deliveryDelays(sql: Sql, eventIds: readonly string[], endpoints: readonly LedgerEndpoint[]): Promise<DelaySummary> {
  const rows = await sql<{ id: string; committedAt: number }[]>`
    select id, (extract(epoch from created_at) * 1000)::float8 as "committedAt" from event_outbox where id = any(${[...eventIds]})`;
  const committedAt = new Map(rows.map((r) => [r.id, Number(r.committedAt)]));
  const delays: number[] = [];
  for (const endpoint of endpoints) {
    const firstReceipt = new Map<string, number>();
    for (const receipt of endpoint.sink.received) {
      const id = String(receipt.headers['webhook-id'] ?? '');
      if (!firstReceipt.has(id)) firstReceipt.set(id, receipt.at);
    }
    for (const [id, at] of firstReceipt) {
      const committed = committedAt.get(id);
      if (committed !== undefined) delays.push(Math.max(0, at - committed));
    }
  }
  delays.sort((a, b) => a - b);
  const quantile = (q: number) => (delays.length === 0 ? 0 : delays[Math.min(delays.length - 1, Math.ceil(q * delays.length) - 1)]!);
  return {
    pairs: delays.length,
    p50Ms: quantile(0.5),
    p99Ms: quantile(0.99),
    maxMs: quantile(1),
    overMs: (ms) => delays.filter((d) => d > ms).length,
  };
}

/** The one-line delay report a scenario prints, to be quoted. */
export function describeDelays(scenario: string, delays: DelaySummary): string {
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  return `${scenario}: delivery delay (commit → first receipt) over ${delays.pairs} pairs: p50 ${s(delays.p50Ms)}, p99 ${s(delays.p99Ms)}, max ${s(delays.maxMs)}; ${delays.overMs(30_000)} pairs later than 30 s`;
}
