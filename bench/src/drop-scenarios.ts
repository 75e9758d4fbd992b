import type { Database } from '@raffle/db';
import { runDrop, type DropResult } from './drop.js';
import type { GateRush, RushTally } from './gate-rush.js';
import type { TokenGate } from './token-gate.js';

export type DropScenarioId = 'drop-fcfs' | 'drop-raffle' | 'drop-token-gated' | 'drop-token-gated-beside-healthy' | 'drop-token-gated-beside-hostile';

/** What another workspace's gates are while its entrants rush beside the drop: a healthy contract nobody holds, or the four hostile ones. */
export type RushGates = 'healthy' | 'hostile';

/**
 * `gated`: the raffle requires an ERC-721 pass on the bench's local chain (token-gate.ts), held by
 * every other entrant. `beside`: another workspace's four gated raffles are entered continuously
 * during the drop (gate-rush.ts), on healthy gates or on hostile ones (issue 34).
 */
export type DropScenario = { id: DropScenarioId; label: string; mechanic: 'fcfs' | 'raffle'; spots: number; gated?: boolean; beside?: RushGates };

export const DROP_SCENARIOS: DropScenario[] = [
  { id: 'drop-fcfs', label: 'drop: FCFS raffle, 1,000 spots', mechanic: 'fcfs', spots: 1000 },
  { id: 'drop-raffle', label: 'drop: raffle, 1,000 spots', mechanic: 'raffle', spots: 1000 },
  { id: 'drop-token-gated', label: 'drop: token-gated raffle (holds a Nebula Pass, ERC-721), 1,000 spots', mechanic: 'raffle', spots: 1000, gated: true },
  {
    id: 'drop-token-gated-beside-healthy',
    label: "drop: token-gated raffle, beside another workspace's rush on four healthy gates",
    mechanic: 'raffle',
    spots: 1000,
    gated: true,
    beside: 'healthy',
  },
  {
    id: 'drop-token-gated-beside-hostile',
    label: "drop: token-gated raffle, beside another workspace's rush on four hostile gates",
    mechanic: 'raffle',
    spots: 1000,
    gated: true,
    beside: 'hostile',
  },
];

/** A hostile rush beside the drop may cost it at most this much more than a healthy one of the same rate (noise on a shared machine). */
export const HOSTILE_RUSH_FLOOR = 0.9;

/** The token-gated drop's throughput may fall at most this far below the plain drop's of the same run (issue 25). */
export const GATED_THROUGHPUT_FLOOR = 0.75;

/** What the database holds after a drop, against what the 201s said. */
export type DropCheck = {
  entriesStored: number;
  /** 201s whose entry id is stored (each id counted once): must equal the 201s. */
  createdAndStored: number;
  /** Entry ids that two 201s returned: must be 0. */
  repeatedIds: number;
  wins: number;
  winPositions: number;
  raffleStatus: string;
  /** Entries still `pending` (the chain not answered for them) once every entrant was answered: must be 0 while the chain is up. */
  pending: number;
};

/** What a gated drop asked of the chain: HTTP requests and JSON-RPC calls through the counting relay, per entrant. */
export type DropRpc = { requests: number; calls: number; requestsPerEntry: number; callsPerEntry: number; holders: number };

export type DropRun = {
  id: DropScenarioId;
  label: string;
  spots: number;
  mechanic: DropScenario['mechanic'];
  result: Omit<DropResult, 'createdEntryIds'>;
  check: DropCheck;
  rpc?: DropRpc;
  /** What the other workspace's rush sent during the drop, and on which gates. */
  rush?: RushTally & { gates: RushGates };
};

/** Entrants answered per second, from the first request to the last answer. */
export const dropThroughput = (run: DropRun) => run.result.entrants / run.result.secondsToAnswerAll;

async function checkDrop(database: Database, raffleId: string, createdEntryIds: string[]): Promise<DropCheck> {
  const unique = [...new Set(createdEntryIds)];
  const [row] = await database.sql<Omit<DropCheck, 'repeatedIds'>[]>`
    select
      (select count(*)::int from entries where raffle_id = ${raffleId}) as "entriesStored",
      (select count(*)::int from entries where raffle_id = ${raffleId} and id = any(${unique})) as "createdAndStored",
      (select count(*)::int from wins where raffle_id = ${raffleId}) as wins,
      (select count(distinct position)::int from wins where raffle_id = ${raffleId}) as "winPositions",
      (select count(*)::int from entries where raffle_id = ${raffleId} and status = 'pending') as pending,
      (select status from raffles where id = ${raffleId}) as "raffleStatus"`;
  return { ...row!, repeatedIds: createdEntryIds.length - unique.length };
}

/**
 * One drop: the raffle opens (`open` creates and publishes it), and every entrant fires at once.
 * FCFS: exactly `spots` 201s and wins, everyone else 409 RAFFLE_FULL. Raffle: every entrant is
 * entered (spots bound the draw, not the entries).
 */
export async function runDropScenario(
  scenario: DropScenario,
  context: {
    database: Database;
    origin: string;
    keysFile: string;
    entrants: number;
    connections: number;
    gate?: TokenGate;
    startRush?: (gates: RushGates) => Promise<GateRush>;
  },
  open: (scenario: DropScenario) => Promise<{ id: string; slug: string }>,
): Promise<DropRun> {
  const raffle = await open(scenario);
  if (scenario.beside && !context.startRush) throw new Error(`${scenario.id} needs a rush beside it`);
  const rush = scenario.beside ? await context.startRush!(scenario.beside) : undefined;
  const gate = scenario.gated ? context.gate : undefined;
  if (scenario.gated && !gate) throw new Error(`${scenario.id} needs the token gate's chain`);
  const rpcBefore = gate ? { requests: gate.rpc.requests, calls: gate.rpc.calls } : null;
  const { createdEntryIds, ...result } = await runDrop({
    origin: context.origin,
    slug: raffle.slug,
    keysFile: context.keysFile,
    entrants: context.entrants,
    connections: context.connections,
  });
  const rushTally = rush ? { ...(await rush.stop()), gates: scenario.beside! } : undefined;
  const rpc =
    gate && rpcBefore
      ? (() => {
          const requests = gate.rpc.requests - rpcBefore.requests;
          const calls = gate.rpc.calls - rpcBefore.calls;
          // Holders are every other entrant of those the drop sent (token-gate.ts).
          return { requests, calls, requestsPerEntry: requests / result.entrants, callsPerEntry: calls / result.entrants, holders: Math.ceil(result.entrants / 2) };
        })()
      : undefined;
  return {
    id: scenario.id,
    label: scenario.label,
    spots: scenario.spots,
    mechanic: scenario.mechanic,
    result,
    check: await checkDrop(context.database, raffle.id, createdEntryIds),
    ...(rpc ? { rpc } : {}),
    ...(rushTally ? { rush: rushTally } : {}),
  };
}

/** The issue's drop targets, checked one by one. */
export function dropVerdicts(run: DropRun): Array<{ what: string; measured: string; met: boolean }> {
  const { result, check } = run;
  const created = result.statuses['201'] ?? 0;
  const serverErrors = Object.entries(result.statuses).filter(([status]) => status.startsWith('5')).reduce((n, [, count]) => n + count, 0);
  const answered = Object.values(result.statuses).reduce((n, count) => n + count, 0);
  const verdicts = [
    { what: 'zero 5xx', measured: `${serverErrors}`, met: serverErrors === 0 },
    { what: 'no request unanswered', measured: `${result.unanswered} unanswered, ${answered} of ${result.entrants} answered`, met: result.unanswered === 0 && answered === result.entrants },
    {
      what: 'every 201 stored exactly once',
      measured: `${created} × 201, ${check.createdAndStored} stored, ${check.repeatedIds} repeated ids, ${check.entriesStored} entries in all`,
      met: check.createdAndStored === created && check.repeatedIds === 0 && check.entriesStored === created,
    },
  ];
  if (run.rpc) {
    const refused = result.statuses['422'] ?? 0;
    verdicts.push({
      what: 'holders entered, non-holders refused (422 REQUIREMENTS_NOT_MET)',
      measured: `${created} × 201 for ${run.rpc.holders} holders, ${refused} × 422 for ${result.entrants - run.rpc.holders} non-holders`,
      met: created === run.rpc.holders && refused === result.entrants - run.rpc.holders,
    });
  }
  if (run.rpc) verdicts.push({ what: 'no entry left pending', measured: `${run.check.pending} pending`, met: run.check.pending === 0 });
  if (run.rush) {
    const { rush } = run;
    const refused = rush.statuses['422'] ?? 0;
    const answered = Object.values(rush.statuses).reduce((n, count) => n + count, 0);
    verdicts.push({
      what: `the ${rush.gates} gates' rush: every entrant refused plainly (422), no 5xx`,
      measured: `${answered} answered: ${Object.entries(rush.statuses).map(([status, n]) => `${n} × ${status}`).join(', ')}; ${rush.unanswered} unanswered`,
      met: refused === answered && rush.unanswered === 0,
    });
  }
  if (run.mechanic === 'fcfs') {
    verdicts.push({
      what: `exactly ${run.spots} wins`,
      measured: `${check.wins} wins at ${check.winPositions} positions, ${created} × 201, raffle ${check.raffleStatus}`,
      met: check.wins === run.spots && check.winPositions === run.spots && created === run.spots,
    });
  }
  return verdicts;
}

export function renderDrops(runs: DropRun[]): string[] {
  if (runs.length === 0) return [];
  const rows = runs.map(({ label, result }) => {
    const statuses = Object.entries(result.statuses).map(([status, n]) => `${n.toLocaleString('en-US')} × ${status}`).join(', ');
    return `| ${label} | ${result.entrants.toLocaleString('en-US')} over ${result.connections} | ${result.secondsToAnswerAll.toFixed(2)} | ${result.latencyMs.p50.toFixed(1)} | ${result.latencyMs.p99.toFixed(1)} | ${result.latencyMs.max.toFixed(0)} | ${statuses} |`;
  });
  const verdicts = runs.flatMap((run) => dropVerdicts(run).map((v) => `| ${run.label}: ${v.what} | ${v.measured} | ${v.met ? 'yes' : '**no**'} |`));
  const plain = runs.find((r) => r.id === 'drop-raffle');
  const gated = runs.find((r) => r.id === 'drop-token-gated');
  if (plain && gated) {
    const ratio = dropThroughput(gated) / dropThroughput(plain);
    verdicts.push(
      `| ${gated.label}: throughput within 25% of the plain drop's (issue 25) | ${dropThroughput(gated).toFixed(0)}/s against ${dropThroughput(plain).toFixed(0)}/s: ${(ratio * 100).toFixed(0)}% | ${ratio >= GATED_THROUGHPUT_FLOOR ? 'yes' : '**no**'} |`,
    );
  }
  const besideHealthy = runs.find((r) => r.id === 'drop-token-gated-beside-healthy');
  const besideHostile = runs.find((r) => r.id === 'drop-token-gated-beside-hostile');
  if (besideHealthy && besideHostile) {
    const ratio = dropThroughput(besideHostile) / dropThroughput(besideHealthy);
    verdicts.push(
      `| ${besideHostile.label}: throughput as beside healthy gates, within noise (issue 34) | ${dropThroughput(besideHostile).toFixed(0)}/s against ${dropThroughput(besideHealthy).toFixed(0)}/s: ${(ratio * 100).toFixed(0)}%; p99 ${besideHostile.result.latencyMs.p99.toFixed(0)} against ${besideHealthy.result.latencyMs.p99.toFixed(0)} ms | ${ratio >= HOSTILE_RUSH_FLOOR ? 'yes' : '**no**'} |`,
    );
  }
  const rpcRows = runs.flatMap((run) =>
    run.rpc
      ? [`| ${run.label} | ${run.rpc.requests.toLocaleString('en-US')} | ${run.rpc.calls.toLocaleString('en-US')} | ${run.rpc.requestsPerEntry.toFixed(4)} | ${run.rpc.callsPerEntry.toFixed(4)} |`]
      : [],
  );
  return [
    '',
    '## Drops',
    '',
    'Every entrant (its own key and address) fires once, the moment a fresh raffle opens; each connection sends the next entrant as soon as its last answer arrives.',
    '',
    '| Drop | entrants over connections | s to answer all | p50 ms | p99 ms | max ms | statuses |',
    '|---|---:|---:|---:|---:|---:|---|',
    ...rows,
    '',
    ...(rpcRows.length
      ? [
          '',
          'What the token-gated drop asked of the chain, counted by a relay in front of anvil (a JSON-RPC batch is one request of many calls):',
          '',
          '| Drop | RPC requests | JSON-RPC calls | requests per entrant | calls per entrant |',
          '|---|---:|---:|---:|---:|',
          ...rpcRows,
        ]
      : []),
    '',
    '| Drop target (issues 13, 25, 34) | Measured | Met |',
    '|---|---|---|',
    ...verdicts,
  ];
}
