import { createCursorCodec, cursorBinding } from '@raffle/domain';
import type { BenchKeys } from './keys.js';
import type { Manifest } from './seed.js';

export type ScenarioId = 'bare' | 'entries-50' | 'entries-100' | 'entries-250' | 'entries-deep-100' | 'public-raffles' | 'malformed-key';

export type Scenario = {
  id: ScenarioId;
  label: string;
  server: 'bare' | 'data-plane';
  /** The copy of a read scenario sent to the data plane whose reads go to the replica (`--replica`). */
  reads?: 'replica';
  path: string;
  headers: Record<string, string>;
  /** A single request before the load, so a wrong route or key fails loudly instead of benchmarking errors. */
  check: (status: number, body: unknown) => string | null;
  /** Only the malformed-key run is expected to fail every request (401). */
  expectsErrors?: boolean;
  /** Read pg_stat_database around the run after letting the statistics settle (exact delta). */
  exactDatabaseDelta?: boolean;
};

type Page = { data: Array<{ id: string }>; pagination: { nextCursor: string | null; hasMore: boolean } };

const fullPage = (limit: number, firstIdAfter?: string) => (status: number, body: unknown) => {
  if (status !== 200) return `expected 200, got ${status}: ${JSON.stringify(body).slice(0, 300)}`;
  const page = body as Page;
  if (page.data?.length !== limit || !page.pagination?.hasMore) return `expected a full page of ${limit} with more after it`;
  if (firstIdAfter !== undefined && !(page.data[0]!.id > firstIdAfter)) return `page starts at ${page.data[0]!.id}, not after ${firstIdAfter}`;
  return null;
};

/**
 * The scenarios of one run. The deep-page cursor is made with the data plane's own codec and
 * the binding its entries route signs (`v1:raffle-entries:<workspace>:<raffle>`), holding the
 * id of the entry at `deepPosition`: exactly what a client holds after walking 900k rows.
 */
export function buildScenarios(manifest: Manifest, keys: BenchKeys, cursorSecret: string): Scenario[] {
  const entriesPath = `/api/v1/workspaces/${manifest.workspaceId}/raffles/${manifest.bigRaffleId}/entries`;
  const binding = cursorBinding('v1:raffle-entries', manifest.workspaceId, manifest.bigRaffleId);
  const deepCursor = createCursorCodec(cursorSecret, 'api').encode(binding, manifest.deepAfterEntryId);
  const workspaceAuth = { authorization: `Bearer ${keys.workspace}` };
  const entries = (limit: number): Scenario => ({
    id: `entries-${limit}` as ScenarioId,
    label: `entries, first page, limit ${limit}`,
    server: 'data-plane',
    path: `${entriesPath}?limit=${limit}`,
    headers: workspaceAuth,
    check: fullPage(limit),
  });

  return [
    {
      id: 'bare',
      label: 'bare Fastify (constant JSON)',
      server: 'bare',
      path: '/',
      headers: {},
      check: (status) => (status === 200 ? null : `expected 200, got ${status}`),
    },
    entries(50),
    entries(100),
    // Right after the first page at the same limit: the pair the 1.5x target compares.
    {
      id: 'entries-deep-100',
      label: `entries, deep page after row ${manifest.deepPosition.toLocaleString('en-US')}, limit 100`,
      server: 'data-plane',
      path: `${entriesPath}?limit=100&cursor=${encodeURIComponent(deepCursor)}`,
      headers: workspaceAuth,
      check: fullPage(100, manifest.deepAfterEntryId),
    },
    entries(250),
    {
      id: 'public-raffles',
      label: 'public raffle list, first page (limit 50)',
      server: 'data-plane',
      path: '/api/v1/raffles',
      headers: { authorization: `Bearer ${keys.personal}` },
      check: fullPage(50),
    },
    {
      id: 'malformed-key',
      label: 'malformed key → 401',
      server: 'data-plane',
      path: entriesPath,
      headers: { authorization: 'Bearer svc_w_garbage' },
      check: (status, body) =>
        status === 401 && (body as { code?: string }).code === 'API_KEY_INVALID'
          ? null
          : `expected 401 API_KEY_INVALID, got ${status}: ${JSON.stringify(body).slice(0, 300)}`,
      expectsErrors: true,
      exactDatabaseDelta: true,
    },
  ];
}

/** Tells a scenario from its reads-on-the-replica copy (same id) in maps and reports. */
export const scenarioKey = (s: { id: ScenarioId; reads?: 'replica' }): string => (s.reads ? `${s.id}@replica` : s.id);

/**
 * `--replica`: each data-plane read scenario, then the same on the data plane reading from the
 * replica, one after the other so the two see the same machine. The malformed key reads nothing,
 * and its check (no transaction on the database) cannot hold there: the replica-reading data plane
 * samples the primary's WAL position ten times a second all run long. The default run keeps it.
 */
export function withReplicaReads(scenarios: Scenario[]): Scenario[] {
  return scenarios.flatMap((s) =>
    s.server !== 'data-plane' ? [s] : s.expectsErrors ? [] : [s, { ...s, reads: 'replica' as const, label: `${s.label}, reads on the replica` }],
  );
}
