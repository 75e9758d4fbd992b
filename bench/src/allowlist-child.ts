/**
 * One step of the allowlist benchmark, alone in this process so that its peak RSS is the step's.
 * Started by run-allowlist.ts with a JSON argument; prints one `ALLOWLIST_JSON` line.
 *
 * - `finalize`: finalizeRaffle of a drawn raffle (its wins finalized, the allowlist build queued),
 *   then the queue upsert alone, in a transaction that is rolled back.
 * - `publish`: publishDueAllowlists, as the scheduler's pass runs it: claim, read the winners,
 *   hash the tree, write the version, its leaves and its event.
 * - `pieces`: the same three parts called one by one inside a transaction that is rolled back,
 *   each timed: reading the winners, hashing the tree (allowlistFromWinners), writing it.
 */
import {
  boundTransaction,
  createDatabase,
  findAllowlistRaffle,
  insertAllowlistVersion,
  isDatabaseTimeout,
  listAllowlistWinners,
  requestAllowlistBuild,
  schema,
  type Db,
} from '@raffle/db';
import { allowlistFromWinners, allowlistSettingsOf, finalizeRaffle, finalizeRaffleIn, lockRaffle, publishDueAllowlists, SEED, systemClock } from '@raffle/domain';
import { and, count, eq } from 'drizzle-orm';
import { processCpuSeconds } from './cpu.js';
import { mb, peakRssMb, sampleMemory, type SampledMemory } from './memory.js';

export type AllowlistChildInput = {
  databaseUrl: string;
  raffleId: string;
  workspaceId: string;
  phase: 'finalize' | 'publish' | 'pieces';
};

export type AllowlistChildResult = {
  phase: AllowlistChildInput['phase'];
  /** The whole step. */
  seconds: number;
  /** finalize: the queue upsert alone (requestAllowlistBuild, what finalize adds for an allowlist raffle), rolled back. */
  queueSeconds?: number;
  /**
   * finalize: set when finalizeRaffle hit its transition bound (a statement past 15 s, Postgres
   * cancelled it and the transaction rolled back), after this long; `seconds` is then the same
   * step (finalizeRaffleIn) in a transaction allowed 10 minutes a statement.
   */
  timedOutAfterSeconds?: number;
  /** finalize: wins now finalized, and whether a build is queued. */
  finalizedWins?: number;
  buildQueued?: boolean;
  /** publish: versions published (1 expected). */
  published?: number;
  /** pieces: read the winners, hash the tree, write the version and its leaves. */
  pieces?: { readSeconds: number; hashSeconds: number; writeSeconds: number; winners: number; hashCpuSeconds: number };
  /** The version built: its root and leaves (publish: as stored; pieces: as computed). */
  root?: string;
  leaves?: number;
  /** Peak RSS of the process (getrusage) and its RSS just before the step; sampled RSS / heap every 20 ms. */
  maxRssMb: number;
  baselineRssMb: number;
  baselineHeapMb: number;
  sampled: SampledMemory;
  cpuSeconds: { node: number; postgres: number | null };
};

class RolledBack extends Error {}
/** What the fallback allows a finalize statement: enough for any size, so the rest of the run can measure. */
const RAISED_BOUND = { statementTimeoutMs: 600_000, lockTimeoutMs: 5000 };
const seconds = (from: number) => Math.round(performance.now() - from) / 1000;

/** Runs `work` in a transaction that is always rolled back, so the dataset is as before. */
async function rolledBack(db: ReturnType<typeof createDatabase>['db'], work: (tx: Parameters<Parameters<typeof db.transaction>[0]>[0]) => Promise<void>) {
  try {
    await db.transaction(async (tx) => {
      await work(tx);
      throw new RolledBack();
    });
  } catch (error) {
    if (!(error instanceof RolledBack)) throw error;
  }
}

/** finalizeRaffle as the dashboard's route calls it; null when it finished, else how long it ran until its statement bound cancelled it. */
async function finalizeWithin(db: Db, input: AllowlistChildInput): Promise<number | null> {
  const started = performance.now();
  try {
    await finalizeRaffle(db, { actor: SEED, raffleId: input.raffleId, workspaceId: input.workspaceId });
    return null;
  } catch (error) {
    if (!isDatabaseTimeout(error)) throw error;
    return seconds(started);
  }
}

async function run(input: AllowlistChildInput): Promise<AllowlistChildResult> {
  // One connection: the Postgres backend whose CPU is counted is the only one the step uses.
  const database = createDatabase({ url: input.databaseUrl, max: 1, applicationName: `bench-allowlist-${input.phase}` });
  const { db, sql } = database;
  try {
    const [backend] = await sql<{ pid: number }[]>`select pg_backend_pid() as pid`;
    const raffle = await findAllowlistRaffle(db, input.raffleId);
    if (!raffle) throw new Error(`no raffle ${input.raffleId}`);
    global.gc?.();
    const before = process.memoryUsage();
    const sampler = sampleMemory(20);
    const nodeBefore = process.cpuUsage();
    const postgresBefore = processCpuSeconds(backend!.pid);
    let started = performance.now();
    let result: Omit<AllowlistChildResult, 'seconds' | 'maxRssMb' | 'baselineRssMb' | 'baselineHeapMb' | 'sampled' | 'cpuSeconds'> = { phase: input.phase };

    if (input.phase === 'finalize') {
      const timedOutAfterSeconds = await finalizeWithin(db, input);
      if (timedOutAfterSeconds !== null) {
        result = { ...result, timedOutAfterSeconds };
        started = performance.now();
        await db.transaction(async (tx) => {
          await boundTransaction(tx, RAISED_BOUND);
          await finalizeRaffleIn(tx, SEED, await lockRaffle(tx, input), new Date());
        });
      }
    } else if (input.phase === 'publish') {
      const published = await publishDueAllowlists(db, {
        clock: systemClock,
        onError: (raffleId, error) => console.error(`build of ${raffleId} failed:`, error),
      });
      result = { ...result, published };
    } else {
      const pieces = { readSeconds: 0, hashSeconds: 0, writeSeconds: 0, winners: 0, hashCpuSeconds: 0 };
      await rolledBack(db, async (tx) => {
        let at = performance.now();
        const winners = await listAllowlistWinners(tx, raffle.id);
        pieces.readSeconds = seconds(at);
        at = performance.now();
        // CPU time too: the hashing is all this process's, and it moves less than wall time when the machine is shared.
        const cpuAt = process.cpuUsage();
        const list = allowlistFromWinners(winners, allowlistSettingsOf(raffle.settings).quantity);
        pieces.hashSeconds = seconds(at);
        const cpu = process.cpuUsage(cpuAt);
        pieces.hashCpuSeconds = Math.round((cpu.user + cpu.system) / 1000) / 1000;
        at = performance.now();
        await insertAllowlistVersion(tx, { raffleId: raffle.id, root: list.root, unlistedWinners: list.unlistedWinners, reason: 'finalized', nodes: list.nodes, leaves: list.leaves, publishedAt: new Date() });
        pieces.writeSeconds = seconds(at);
        pieces.winners = winners.length;
        result = { ...result, pieces, root: list.root, leaves: list.leaves.length };
      });
    }
    const elapsed = seconds(started);
    const node = process.cpuUsage(nodeBefore);
    const postgresAfter = processCpuSeconds(backend!.pid);
    const sampled = sampler.stop();
    const maxRssMb = peakRssMb();

    // What the step left, read after it was timed.
    if (input.phase === 'finalize') {
      const [won] = await db.select({ n: count() }).from(schema.wins).where(and(eq(schema.wins.raffleId, raffle.id), eq(schema.wins.status, 'finalized')));
      const [queued] = await db.select({ n: count() }).from(schema.raffleAllowlistBuilds).where(eq(schema.raffleAllowlistBuilds.raffleId, raffle.id));
      let queueSeconds = 0;
      await rolledBack(db, async (tx) => {
        const at = performance.now();
        const now = new Date();
        await requestAllowlistBuild(tx, { raffleId: raffle.id, requestedAt: now, notBefore: now });
        queueSeconds = seconds(at);
      });
      result = { ...result, finalizedWins: won!.n, buildQueued: queued!.n > 0, queueSeconds };
    } else if (input.phase === 'publish') {
      const [version] = await db
        .select({ root: schema.raffleAllowlists.root, leaves: schema.raffleAllowlists.leafCount })
        .from(schema.raffleAllowlists)
        .where(eq(schema.raffleAllowlists.raffleId, raffle.id));
      result = { ...result, root: version?.root, leaves: version?.leaves };
    }
    return {
      ...result,
      seconds: elapsed,
      maxRssMb,
      baselineRssMb: mb(before.rss),
      baselineHeapMb: mb(before.heapUsed),
      sampled,
      cpuSeconds: {
        node: Math.round((node.user + node.system) / 1e4) / 100,
        postgres: postgresBefore !== null && postgresAfter !== null ? Math.round((postgresAfter - postgresBefore) * 100) / 100 : null,
      },
    };
  } finally {
    await database.close();
  }
}

const input = JSON.parse(process.argv[2] ?? '') as AllowlistChildInput;
const result = await run(input);
console.log(`ALLOWLIST_JSON ${JSON.stringify(result)}`);
