import { describe, expect, it } from 'vitest';
import { describeRouting, parseReadCounts, readRoutingBetween, readRoutingProblem, stalenessOf } from '../src/read-routing.js';
import { replicaComparison, replicaVerdicts } from '../src/replica-report.js';
import type { ScenarioResult } from '../src/report.js';
import { scenarioKey, withReplicaReads, type Scenario } from '../src/scenarios.js';

const scrape = (samples: Array<[target: string, reason: string, value: number]>) =>
  [
    '# HELP raffle_reads_total Routed reads by where they went and why',
    '# TYPE raffle_reads_total counter',
    ...samples.map(([target, reason, value]) => `raffle_reads_total{service="data-plane",reason="${reason}",target="${target}"} ${value}`),
    '# HELP http_request_duration_seconds HTTP request duration',
    'http_request_duration_seconds_count{route="/x",target="replica"} 99',
  ].join('\n');

describe('parseReadCounts', () => {
  it('keys the counter by target and reason, whatever the label order and extra labels', () => {
    expect(parseReadCounts(scrape([['replica', 'replica', 10], ['primary', 'own_write', 2]]))).toEqual({
      'replica:replica': 10,
      'primary:own_write': 2,
    });
    expect(parseReadCounts('raffle_reads_total{target="replica",reason="replica"} 1e3')).toEqual({ 'replica:replica': 1000 });
  });

  it('tells a counter with no samples yet from a data plane without the metric', () => {
    expect(parseReadCounts(scrape([]))).toEqual({});
    expect(parseReadCounts('# TYPE http_requests_total counter\nhttp_requests_total 5')).toBeNull();
  });
});

describe('readRoutingBetween and readRoutingProblem', () => {
  const before = parseReadCounts(scrape([['replica', 'replica', 100], ['primary', 'too_stale', 7]]));

  it('counts what moved, by target', () => {
    const after = parseReadCounts(scrape([['replica', 'replica', 1100], ['primary', 'too_stale', 9], ['primary', 'replica_failed', 3]]));
    const routing = readRoutingBetween(before, after);
    expect(routing).toEqual({ replica: 1000, primary: 5, byReason: { 'replica:replica': 1000, 'primary:too_stale': 2, 'primary:replica_failed': 3 }, exported: true });
    expect(readRoutingProblem(routing, 'replica')).toBeNull();
    expect(describeRouting(routing)).toBe('1,000 on the replica, 5 on the primary (replica:replica 1,000, primary:replica_failed 3, primary:too_stale 2)');
  });

  it('fails a reads-on-the-replica run whose reads stayed on the primary, or mostly did', () => {
    const stayed = readRoutingBetween(before, parseReadCounts(scrape([['replica', 'replica', 100], ['primary', 'too_stale', 507]])));
    expect(readRoutingProblem(stayed, 'replica')).toMatch(/^no read reached the replica \(0 on the replica, 500 on the primary/);
    const mostly = readRoutingBetween(before, parseReadCounts(scrape([['replica', 'replica', 180], ['primary', 'too_stale', 27]])));
    expect(readRoutingProblem(mostly, 'replica')).toMatch(/^only 80\.0% of routed reads reached the replica, below 90%/);
  });

  it('fails when the data plane exports no counter, and when it routed nothing', () => {
    const none = readRoutingBetween(null, null);
    expect(none.exported).toBe(false);
    expect(readRoutingProblem(none, 'replica')).toMatch(/exports no raffle_reads_total/);
    expect(readRoutingProblem(readRoutingBetween(before, before), 'replica')).toMatch(/^no read reached the replica/);
  });

  it('a primary-only data plane must send nothing to the replica; without the counter it sent nothing', () => {
    expect(readRoutingProblem(readRoutingBetween(null, null), 'primary')).toBeNull();
    expect(readRoutingProblem(readRoutingBetween(before, parseReadCounts(scrape([['replica', 'replica', 101], ['primary', 'too_stale', 7]]))), 'primary')).toBe(
      '1 reads went to the replica of a primary-only data plane',
    );
  });
});

describe('stalenessOf', () => {
  it('reads the header a routed read carries', () => {
    expect(stalenessOf(new Headers({ 'Raffle-Staleness-Ms': '0' }))).toBe(0);
    expect(stalenessOf(new Headers({ 'raffle-staleness-ms': '1250' }))).toBe(1250);
    expect(stalenessOf(new Headers())).toBeNull();
    expect(stalenessOf(new Headers({ 'raffle-staleness-ms': 'soon' }))).toBeNull();
  });
});

describe('withReplicaReads', () => {
  const scenario = (id: Scenario['id'], server: Scenario['server'], extra: Partial<Scenario> = {}): Scenario => ({
    id,
    label: id,
    server,
    path: '/',
    headers: {},
    check: () => null,
    ...extra,
  });

  it('follows each data-plane read scenario with its copy on the replica; bare runs once, the malformed key not at all', () => {
    const all = withReplicaReads([scenario('bare', 'bare'), scenario('entries-50', 'data-plane'), scenario('malformed-key', 'data-plane', { expectsErrors: true })]);
    expect(all.map(scenarioKey)).toEqual(['bare', 'entries-50', 'entries-50@replica']);
    expect(all[2]!.label).toBe('entries-50, reads on the replica');
  });
});

describe('the replica section of the report', () => {
  const activity = (transactions: number) => ({ xactCommit: transactions, xactRollback: 0, tupReturned: 0, tupFetched: 0, blksHit: 0, blksRead: 0 });
  const result = (id: ScenarioResult['id'], rps: number, extra: Partial<ScenarioResult> = {}): ScenarioResult => ({
    id,
    label: id,
    wrk: {
      requests: rps * 10,
      seconds: 10,
      requestsPerSecond: rps,
      bytesPerRequest: 100,
      errors: { connect: 0, read: 0, write: 0, status: 0, timeout: 0 },
      latencyMs: { mean: 5, p50: 4, p90: 8, p99: 12.5, p999: 20, max: 30 },
    },
    cpu: { server: 90, postgres: 60, replica: 0, wrk: 20, other: 5 },
    database: null,
    probe: '200',
    ...extra,
  });
  const results = [
    result('bare', 20_000),
    result('entries-50', 2_000, {
      database: { delta: activity(20_000), exact: false },
      replicaDatabase: activity(0),
      routing: { replica: 0, primary: 20_000, byReason: { 'primary:no_replica': 20_000 }, exported: true },
    }),
    result('entries-50', 1_800, {
      reads: 'replica',
      cpu: { server: 95, postgres: 2, replica: 58, wrk: 20, other: 5 },
      database: { delta: activity(10), exact: false },
      replicaDatabase: activity(18_000),
      routing: { replica: 18_000, primary: 0, byReason: { 'replica:replica': 18_000 }, exported: true },
    }),
  ];

  it('gives one verdict for the primary-only scenarios and one per scenario on the replica', () => {
    expect(replicaVerdicts(results)).toEqual([
      { target: 'primary-only data plane: no read on the replica', measured: '20,000 routed reads in 1 scenarios, all on the primary', met: true },
      {
        target: 'entries-50: reads served by the replica',
        measured: '18,000 on the replica, 0 on the primary (replica:replica 18,000); xact/req primary 0.001, replica 1.000',
        met: true,
      },
    ]);
    const failed = replicaVerdicts([results[1]!, { ...results[2]!, routingProblem: 'no read reached the replica' }]);
    expect(failed[1]!.met).toBe(false);
    expect(replicaVerdicts(results.slice(0, 2))).toEqual([]);
  });

  it('puts each scenario on the primary only next to its reads on the replica, as shares of bare and of each other', () => {
    const lines = replicaComparison(results);
    expect(lines[0]).toBe('## Reads on the replica');
    expect(lines).toContain('| entries-50 | primary | 2,000 | 10.0% |  | 12.50 | 1.000 / 0.000 | 90 / 60 / 0 | 0.300 | 0 / 20,000 |');
    expect(lines).toContain('| entries-50 | replica | 1,800 | 9.0% | 90.0% | 12.50 | 0.001 / 1.000 | 95 / 2 / 58 | 0.333 | 18,000 / 0 |');
  });
});
