import { randomUUID } from 'node:crypto';
import { sendRepeatedly, startRequestLoad, type PlannedRequest, type RequestLoad, type RequestOutcome } from '@raffle/service-kit/testing/faults';
import type { TopologyTenant } from './topology-tenant.js';

const READ_AFTER = 'raffle-read-after';
const STALENESS = 'raffle-staleness-ms';
const REQUEST_TIMEOUT_MS = 10_000;
export const OWN_READ_LABEL = 'GET /api/v1/raffles/{slug}/entries/me (Raffle-Read-After, on the other data plane)';

/** An entrant's read of their own entry right after entering, and the write it must see. */
export type OwnRead = { outcome: RequestOutcome; entryId: string; token: string | null };

/**
 * Hands out each (entrant, raffle) pair once, for the whole file: every 201 is one new entry, so
 * an acknowledged write can be looked up afterwards. Each entrant enters from an address of its
 * own (TRUST_PROXY is on), so the duplicate-IP check does not rewrite a raffle's earlier entries.
 */
export function entryPairs(tenant: TopologyTenant) {
  let next = 0;
  const total = tenant.entrants.length * tenant.raffles.length;
  return {
    take(): { entrant: TopologyTenant['entrants'][number]; address: string; slug: string } | null {
      if (next >= total) return null;
      const pair = next++;
      const index = pair % tenant.entrants.length;
      return { entrant: tenant.entrants[index]!, address: `10.79.${index >> 8}.${index & 255}`, slug: tenant.raffles[Math.floor(pair / tenant.entrants.length)]!.slug };
    },
  };
}

export type TopologyLoadOptions = {
  dataPlanes: readonly string[];
  tenant: TopologyTenant;
  pairs: ReturnType<typeof entryPairs>;
  /** Entrants entering at once: each enters on one data plane, then reads the entry on the other. */
  entrants: number;
  /** List readers per data plane. */
  listReaders: number;
  pauseMs: number;
};

export type TopologyLoad = RequestLoad & { ownReads: OwnRead[] };

/**
 * The load the topology test keeps up through each fault: entrants entering raffles through both
 * data planes, each then reading their entry at once on the other data plane with the
 * `Raffle-Read-After` token the write answered (read-your-writes across instances); and list
 * readers on both data planes (an entrant's entries, the workspace's raffles and a raffle's
 * entries: routed reads, uncached, so their `Raffle-Staleness-Ms` is the router's own).
 */
export function startTopologyLoad(options: TopologyLoadOptions): TopologyLoad {
  const { dataPlanes, tenant, pairs } = options;
  const journeyOutcomes: RequestOutcome[] = [];
  const ownReads: OwnRead[] = [];
  let running = true;
  let turn = 0;

  const entrantLoop = async () => {
    while (running) {
      const pair = pairs.take();
      if (!pair) return;
      const writeOn = dataPlanes[turn % dataPlanes.length]!;
      const readOn = dataPlanes[(turn + 1) % dataPlanes.length]!;
      turn += 1;
      const [written] = await sendRepeatedly(writeOn, entering(pair.slug, pair.entrant.apiKey, pair.address), 1, REQUEST_TIMEOUT_MS);
      journeyOutcomes.push(written!);
      if (written!.status === 201) {
        const token = written!.headers[READ_AFTER] ?? null;
        const [read] = await sendRepeatedly(readOn, ownEntry(pair.slug, pair.entrant.apiKey, pair.address, token), 1, REQUEST_TIMEOUT_MS);
        journeyOutcomes.push(read!);
        ownReads.push({ outcome: read!, entryId: (written!.body as { id: string }).id, token });
      }
      await sleep(options.pauseMs);
    }
  };
  const entrantLoops = Array.from({ length: options.entrants }, entrantLoop);
  const listLoads = dataPlanes.map((origin) => startRequestLoad({ origin, clients: options.listReaders, pauseMs: options.pauseMs, timeoutMs: REQUEST_TIMEOUT_MS, next: listReads(tenant) }));

  return {
    get outcomes() {
      return [...journeyOutcomes, ...listLoads.flatMap((load) => load.outcomes)];
    },
    ownReads,
    async stop() {
      running = false;
      await Promise.all([...entrantLoops, ...listLoads.map((load) => load.stop())]);
      return this.outcomes;
    },
  };
}

const entering = (slug: string, apiKey: string, address: string): PlannedRequest => ({
  kind: 'write',
  label: 'POST /api/v1/raffles/{slug}/entries',
  method: 'POST',
  path: `/api/v1/raffles/${slug}/entries`,
  headers: { authorization: `Bearer ${apiKey}`, 'idempotency-key': randomUUID(), 'x-forwarded-for': address },
});

const ownEntry = (slug: string, apiKey: string, address: string, token: string | null): PlannedRequest => ({
  kind: 'read',
  label: OWN_READ_LABEL,
  method: 'GET',
  path: `/api/v1/raffles/${slug}/entries/me`,
  headers: { authorization: `Bearer ${apiKey}`, 'x-forwarded-for': address, ...(token ? { [READ_AFTER]: token } : {}) },
});

/** The list readers' round: three routed, uncached lists in turn. */
function listReads(tenant: TopologyTenant): () => PlannedRequest {
  let sent = 0;
  const workspace = { authorization: `Bearer ${tenant.workspaceKey}` };
  return () => {
    sent += 1;
    const entrant = tenant.entrants[sent % tenant.entrants.length]!;
    const raffle = tenant.raffles[sent % tenant.raffles.length]!;
    if (sent % 3 === 0) return { kind: 'read', label: 'GET /api/v1/entries', method: 'GET', path: '/api/v1/entries?limit=5', headers: { authorization: `Bearer ${entrant.apiKey}`, 'x-forwarded-for': '10.79.255.1' } };
    if (sent % 3 === 1) return { kind: 'read', label: 'GET /api/v1/workspaces/{id}/raffles', method: 'GET', path: `/api/v1/workspaces/${tenant.workspaceId}/raffles?limit=5`, headers: workspace };
    return { kind: 'read', label: 'GET /api/v1/workspaces/{id}/raffles/{id}/entries', method: 'GET', path: `/api/v1/workspaces/${tenant.workspaceId}/raffles/${raffle.id}/entries?limit=5`, headers: workspace };
  };
}

/**
 * An entrant's read of their own entry that did not see it: no token from the write, or an
 * answer other than 200 with that entry.
 */
export function ownReadViolations(ownReads: readonly OwnRead[]): string[] {
  return ownReads.flatMap(({ outcome, entryId, token }) => {
    if (!token) return [`the entry ${entryId} answered no ${READ_AFTER} token`];
    const seen = outcome.status === 200 && (outcome.body as { id?: string } | null)?.id === entryId;
    return seen ? [] : [`the read of ${entryId} after ${token} answered ${outcome.status ?? outcome.transportError}: ${JSON.stringify(outcome.body).slice(0, 200)}`];
  });
}

/** `Raffle-Staleness-Ms` of a read's answer, or null without one. */
export const stalenessOf = (outcome: RequestOutcome): number | null => (outcome.headers[STALENESS] === undefined ? null : Number(outcome.headers[STALENESS]));

/**
 * Routed reads answered as staler than the bound allows. The router sends a read to the replica
 * only while the replica is at most `boundMs` behind, and the header counts on to when the answer
 * is sent, so the honest ceiling is the bound plus the time the request took.
 */
export function stalenessViolations(outcomes: readonly RequestOutcome[], boundMs: number): string[] {
  return outcomes
    .filter((o) => o.kind === 'read' && o.status === 200)
    .flatMap((o) => {
      const staleness = stalenessOf(o);
      if (staleness === null) return [`${o.label}: no Raffle-Staleness-Ms`];
      const ceiling = boundMs + Math.ceil(o.finishedAt - o.startedAt);
      return staleness > ceiling ? [`${o.label}: Raffle-Staleness-Ms ${staleness} > ${boundMs} + ${Math.ceil(o.finishedAt - o.startedAt)} ms in flight`] : [];
    });
}

/** The ids of the entries acknowledged (201) in these outcomes. */
export const acknowledgedEntryIds = (outcomes: readonly RequestOutcome[]) =>
  outcomes.filter((o) => o.kind === 'write' && o.status === 201).map((o) => (o.body as { id: string }).id);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
