import type { Sql } from '@raffle/db';
import { Webhook } from 'standardwebhooks';
import type { createOwners } from './fixtures.js';
import { registerSecret } from './log-scan.js';
import { startSink, type Received, type SinkAnswer } from './sink.js';

type Sink = Awaited<ReturnType<typeof startSink>>;
export type LedgerEndpoint = { id: string; secret: string; sink: Sink };

/** `count` workspace endpoints subscribed to raffle.published, each with a sink of its own answering as `respond` says. */
export async function sinkEndpoints(
  owners: Awaited<ReturnType<typeof createOwners>>,
  count: number,
  respond: (request: Received) => SinkAnswer,
): Promise<LedgerEndpoint[]> {
  const endpoints: LedgerEndpoint[] = [];
  for (let i = 0; i < count; i++) {
    const sink = await startSink(respond);
    const endpoint = await owners.endpoint({ url: `${sink.url}/hook` });
    endpoints.push({ id: endpoint.id, secret: registerSecret(endpoint.secret), sink });
  }
  return endpoints;
}

export const receiptCount = (endpoints: readonly LedgerEndpoint[]) => endpoints.reduce((n, e) => n + e.sink.received.length, 0);

/** Polls `condition` until it holds; fails with `what` at the deadline. */
export async function waitUntil(condition: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export type Tally = {
  expected: number;
  /** Distinct (endpoint, event) pairs received. */
  delivered: number;
  receipts: number;
  /** (endpoint, event) pairs committed but never received. */
  lost: Array<{ endpointId: string; eventId: string }>;
  /** Receipts beyond the first of their (endpoint, webhook-id). */
  duplicates: number;
  /** Receipts whose webhook-id is no committed event, whose signature does not verify, or whose body differs from the first receipt's. */
  malformed: string[];
};

/**
 * Counts what each endpoint's sink received per webhook-id against the events that committed:
 * at-least-once means every pair arrived, and any repeat is the same event (same webhook-id,
 * same body), signed afresh with the endpoint's secret.
 */
export function tallyDeliveries(eventIds: readonly string[], endpoints: readonly LedgerEndpoint[]): Tally {
  const committed = new Set(eventIds);
  const tally: Tally = { expected: eventIds.length * endpoints.length, delivered: 0, receipts: 0, lost: [], duplicates: 0, malformed: [] };
  for (const endpoint of endpoints) {
    const verifier = new Webhook(endpoint.secret);
    const firstBody = new Map<string, string>();
    for (const receipt of endpoint.sink.received) {
      tally.receipts += 1;
      const id = String(receipt.headers['webhook-id'] ?? '');
      if (!committed.has(id)) tally.malformed.push(`${endpoint.id}: unknown webhook-id "${id}"`);
      try {
        verifier.verify(receipt.body, receipt.headers as Record<string, string>);
      } catch (error) {
        tally.malformed.push(`${endpoint.id}/${id}: signature does not verify (${(error as Error).message})`);
      }
      const first = firstBody.get(id);
      if (first === undefined) firstBody.set(id, receipt.body);
      else {
        tally.duplicates += 1;
        if (first !== receipt.body) tally.malformed.push(`${endpoint.id}/${id}: a duplicate with a different body`);
      }
    }
    for (const eventId of eventIds) {
      if (firstBody.has(eventId)) tally.delivered += 1;
      else tally.lost.push({ endpointId: endpoint.id, eventId });
    }
  }
  return tally;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Ids of every event committed for the workspace (the outbox keeps published rows for weeks). */
export async function committedEventIds(sql: Sql, workspaceId: string): Promise<string[]> {
  const rows = await sql<{ id: string }[]>`select id from event_outbox where workspace_id = ${workspaceId} order by seq`;
  return rows.map((r) => r.id);
}

/**
 * Waits until every committed event reached every endpoint, then until the database shows
 * every delivery succeeded and the sinks stay quiet for a moment (so late repeats are
 * counted too). On the deadline it fails with what is missing and where it is stuck.
 */
export async function waitForEveryDelivery(args: {
  sql: Sql;
  eventIds: readonly string[];
  endpoints: readonly LedgerEndpoint[];
  timeoutMs: number;
  quietMs?: number;
}): Promise<Tally> {
  const { sql, eventIds, endpoints } = args;
  const deadline = Date.now() + args.timeoutMs;
  const endpointIds = endpoints.map((e) => e.id);
  const receipts = () => receiptCount(endpoints);
  for (;;) {
    const tally = tallyDeliveries(eventIds, endpoints);
    if (tally.lost.length === 0) {
      const [row] = await sql<{ total: number; unfinished: number }[]>`
        select count(*)::int as total, count(*) filter (where status <> 'succeeded')::int as unfinished
        from webhook_deliveries where endpoint_id = any(${endpointIds})`;
      if (row!.total === tally.expected && row!.unfinished === 0) break;
    }
    if (Date.now() > deadline) {
      const [stuck] = await sql<{ unpublished: number; statuses: Record<string, number> | null }[]>`
        select (select count(*)::int from event_outbox where id = any(${[...eventIds]}) and published_at is null) as unpublished,
               (select json_object_agg(status, n) from (select status, count(*)::int as n from webhook_deliveries
                 where endpoint_id = any(${endpointIds}) group by status) s) as statuses`;
      throw new Error(
        `after ${args.timeoutMs} ms, ${tally.lost.length} of ${tally.expected} (endpoint, event) pairs never arrived ` +
          `(e.g. ${JSON.stringify(tally.lost.slice(0, 3))}); outbox rows unpublished: ${stuck!.unpublished}; deliveries by status: ${JSON.stringify(stuck!.statuses)}`,
      );
    }
    await sleep(100);
  }
  const quietMs = args.quietMs ?? 1000;
  for (let seen = receipts(), since = Date.now(); Date.now() - since < quietMs; ) {
    await sleep(100);
    if (receipts() !== seen) {
      seen = receipts();
      since = Date.now();
    }
  }
  return tallyDeliveries(eventIds, endpoints);
}

/** The one-line summary each fault scenario prints. */
export function describeTally(scenario: string, events: number, tally: Tally): string {
  const endpoints = events === 0 ? 0 : tally.expected / events;
  return `${scenario}: ${events} events × ${endpoints} endpoints, ${tally.lost.length} lost, ${tally.duplicates} duplicates (${tally.receipts} receipts)`;
}
