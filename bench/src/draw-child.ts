/**
 * One draw of the big raffle, alone in this process so that its peak RSS is the draw's. Started
 * by run-draw.ts with a JSON argument; prints one `DRAW_JSON` line. Everything happens in one
 * transaction that is rolled back, so the dataset is unchanged and the next round draws the same.
 */
import { createDatabase, schema, updateRaffle } from '@raffle/db';
import { count, eq } from 'drizzle-orm';
import { createBeaconClient, roundAt, startLocalBeacon } from '@raffle/beacon';
import { drawRaffleIn, fetchDrawBeacon, lockRaffle, rankEligibleEntries, SEED } from '@raffle/domain';
import { processCpuSeconds } from './cpu.js';
import { mb, peakRssMb, sampleMemory } from './memory.js';
import { monotonicNowUs } from './profile-summary.js';

export type DrawChildInput = {
  databaseUrl: string;
  raffleId: string;
  /** Hex of 32 bytes: fixed, so every round ranks the same entries the same way. */
  seedHex: string;
  spots: number;
  /** `draw`: drawRaffleIn, the whole closed → drawn step. `rank`: only reading and ranking the eligible entries. */
  phase: 'draw' | 'rank';
};

export type DrawChildResult = {
  phase: DrawChildInput['phase'];
  seconds: number;
  /** Entries the draw ranked (valid, minus flagged duplicates when the raffle excludes them). */
  eligible: number;
  winners: number | null;
  entriesDigest: string;
  /** Peak resident set of this process (getrusage, exact), and before the draw started. */
  maxRssMb: number;
  baselineRssMb: number;
  /** The highest of process.memoryUsage() sampled every 50 ms (timers wait while synchronous work runs, so this can miss the peak). */
  sampled: { rssMb: number; heapUsedMb: number; externalMb: number; samples: number };
  /** CPU seconds during the draw: this Node process, and the Postgres backend serving it. */
  /**
   * CPU seconds during the draw: this Node process, and the Postgres backend serving it (parallel
   * query workers are separate processes and are not included).
   */
  cpuSeconds: { node: number; postgres: number | null };
  /** Time inside `tx.execute` (the eligible-entry reads, rows parsed included) and how many there were. */
  reads: { seconds: number; queries: number };
  /**
   * Draw phase: fetching and verifying the raffle's beacon round from an in-process local beacon
   * over HTTP (one relay request and one BLS pairing check); it is part of `seconds`.
   */
  beaconSeconds: number | null;
  /**
   * The same for the process's first round, fetched (one round earlier) before the timed draw: it
   * pays @noble/curves' one-time set-up of hashing to the curve and pairing, which a long-running
   * management instance pays once, not per draw.
   */
  beaconFirstSeconds: number | null;
  /** Size of the canonical lines the snapshot stores (rank phase only). */
  window: { fromUs: number; toUs: number };
};

class RolledBack extends Error {}

type Executes = { execute: (...args: never[]) => Promise<unknown> };

/**
 * The same transaction, with the time spent in `execute` counted: rankEligibleEntries reads the
 * eligible entries that way (and nothing else in a draw without requirements does), so the
 * domain code is timed without being changed.
 */
function timingExecute<T extends Executes>(tx: T, spent: { ms: number; calls: number }): T {
  return new Proxy(tx, {
    get(target, property, receiver) {
      if (property !== 'execute') return Reflect.get(target, property, receiver);
      return async (...args: Parameters<T['execute']>) => {
        const started = performance.now();
        try {
          return await target.execute(...args);
        } finally {
          spent.ms += performance.now() - started;
          spent.calls++;
        }
      };
    },
  });
}

async function run(input: DrawChildInput): Promise<DrawChildResult> {
  const database = createDatabase({ url: input.databaseUrl, max: 1, applicationName: `bench-draw-${input.phase}` });
  // The draw mixes in a beacon round as production draws do: a local beacon whose rounds up to now are published.
  const beacon = await startLocalBeacon({ port: 0, host: '127.0.0.1', period: 1, genesisTime: Math.floor(Date.now() / 1000) - 3600 });
  const rounds = createBeaconClient({ chain: beacon.chain, relays: [beacon.url] });
  try {
    const [backend] = await database.sql<{ pid: number }[]>`select pg_backend_pid() as pid`;
    const sampler = sampleMemory(50);
    const baselineRssMb = mb(process.memoryUsage().rss);
    let measured: Omit<DrawChildResult, 'maxRssMb' | 'baselineRssMb' | 'sampled'> | undefined;
    try {
      await database.db.transaction(async (plainTx) => {
        const spent = { ms: 0, calls: 0 };
        const tx = timingExecute(plainTx, spent);
        const now = new Date();
        const open = await lockRaffle(tx, { raffleId: input.raffleId });
        const closed = await updateRaffle(tx, open.id, {
          status: 'closed',
          mechanic: 'raffle',
          spots: input.spots,
          drawSeed: input.seedHex,
          beaconRound: roundAt(beacon.chain, Math.floor(now.getTime() / 1000)) - 1,
          beaconChainHash: beacon.chain.chainHash,
          closedAt: now,
          updatedAt: now,
        });

        let beaconFirstSeconds: number | null = null;
        if (input.phase === 'draw') {
          const first = performance.now();
          await rounds.fetchRound(closed!.beaconRound! - 1);
          beaconFirstSeconds = Math.round(performance.now() - first) / 1000;
        }
        const nodeBefore = process.cpuUsage();
        const postgresBefore = processCpuSeconds(backend!.pid);
        const fromUs = monotonicNowUs();
        const started = performance.now();
        let eligible: number;
        let winners: number | null = null;
        let entriesDigest: string;
        let beaconSeconds: number | null = null;
        if (input.phase === 'draw') {
          const drawBeacon = await fetchDrawBeacon(rounds, closed!);
          beaconSeconds = Math.round(performance.now() - started) / 1000;
          const drawn = await drawRaffleIn(tx, SEED, closed!, now, drawBeacon);
          entriesDigest = drawn.entriesDigest ?? '';
          const { raffleDrawSnapshots, wins } = schema;
          const [snapshot] = await tx
            .select({ n: raffleDrawSnapshots.entryCount })
            .from(raffleDrawSnapshots)
            .where(eq(raffleDrawSnapshots.raffleId, drawn.id));
          eligible = snapshot?.n ?? 0;
          const [won] = await tx.select({ n: count() }).from(wins).where(eq(wins.raffleId, drawn.id));
          winners = won!.n;
        } else {
          const ranked = await rankEligibleEntries(tx, closed!, Buffer.from(input.seedHex, 'hex'), input.spots);
          eligible = ranked.count;
          entriesDigest = ranked.entriesDigest;
        }
        const seconds = (performance.now() - started) / 1000;
        const toUs = monotonicNowUs();
        const node = process.cpuUsage(nodeBefore);
        const postgresAfter = processCpuSeconds(backend!.pid);
        measured = {
          phase: input.phase,
          seconds: Math.round(seconds * 1000) / 1000,
          eligible,
          winners,
          entriesDigest,
          cpuSeconds: {
            node: Math.round((node.user + node.system) / 1e4) / 100,
            postgres: postgresBefore !== null && postgresAfter !== null ? Math.round((postgresAfter - postgresBefore) * 100) / 100 : null,
          },
          reads: { seconds: Math.round(spent.ms) / 1000, queries: spent.calls },
          beaconSeconds,
          beaconFirstSeconds,
          window: { fromUs, toUs },
        };
        // Nothing of the draw may stay: the next round (and the read benchmark) needs the open raffle.
        throw new RolledBack();
      });
    } catch (error) {
      if (!(error instanceof RolledBack)) throw error;
    }
    const sampled = sampler.stop();
    const maxRssMb = peakRssMb();
    return { ...measured!, maxRssMb, baselineRssMb, sampled };
  } finally {
    await database.close();
    await beacon.close();
  }
}

const input = JSON.parse(process.argv[2] ?? '') as DrawChildInput;
const result = await run(input);
console.log(`DRAW_JSON ${JSON.stringify(result)}`);
