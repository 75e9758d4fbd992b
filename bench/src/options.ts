import { parseArgs } from 'node:util';
import { DEFAULT_SPEC, type DatasetSpec } from './dataset.js';

export type BenchOptions = {
  durationSeconds: number;
  warmupSeconds: number;
  connections: number;
  threads: number;
  reseed: boolean;
  /** `dist` builds the data plane and runs compiled JS (production); `tsx` runs the sources. */
  mode: 'dist' | 'tsx';
  postgresUrl: string;
  databaseName: string;
  databasePoolSize: number;
  spec: DatasetSpec;
  /** Each scenario is measured this many times, round-robin; the median round is reported. */
  rounds: number;
  /** Run only these scenario ids (targets whose inputs are missing are skipped). */
  only: string[] | null;
  /** Record a V8 CPU profile of the data plane into results/profiles/ and summarise it. */
  profile: boolean;
};

const USAGE = `pnpm bench [-- options]   (each option also reads BENCH_<NAME> from the environment)
  --duration=10        seconds measured per scenario
  --warmup=3           seconds of discarded load before each measurement
  --connections=50     wrk connections
  --threads=2          wrk threads
  --rounds=1           measure every scenario this many times, round-robin, and report the median
  --reseed             drop and seed the benchmark database even if it holds the dataset
  --mode=dist|tsx      run the built data plane (default; falls back to tsx if the build fails) or its sources
  --postgres-url=postgres://postgres@127.0.0.1:5432
  --database=raffle_bench
  --pool-size=16       DATABASE_POOL_SIZE of the data plane
  --entries=1000000    entries in the big raffle (smaller values make a quick trial run)
  --raffles=10000
  --only=bare,entries-50   run only these scenarios (bare, entries-50, entries-100, entries-250,
                       entries-deep-100, public-raffles, malformed-key)
  --profile            CPU-profile the data plane (results/profiles/) and print where its time went`;

function positiveNumber(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value.replace(/s$/, ''));
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number, got "${value}"\n\n${USAGE}`);
  return n;
}

/** Flags win over BENCH_* environment variables, which win over defaults. */
export function readOptions(argv: string[], env: NodeJS.ProcessEnv): BenchOptions {
  const { values } = parseArgs({
    args: argv.filter((a) => a !== '--'),
    options: {
      duration: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      threads: { type: 'string' },
      rounds: { type: 'string' },
      reseed: { type: 'boolean' },
      mode: { type: 'string' },
      'postgres-url': { type: 'string' },
      database: { type: 'string' },
      'pool-size': { type: 'string' },
      entries: { type: 'string' },
      raffles: { type: 'string' },
      only: { type: 'string' },
      profile: { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const pick = (flag: string | undefined, name: string) => flag ?? env[`BENCH_${name}`];
  const mode = pick(values.mode, 'MODE') ?? 'dist';
  if (mode !== 'dist' && mode !== 'tsx') throw new Error(`--mode must be dist or tsx, got "${mode}"`);
  const postgresUrl = (pick(values['postgres-url'], 'POSTGRES_URL') ?? 'postgres://postgres@127.0.0.1:5432').replace(/\/$/, '');
  if (!/@(127\.0\.0\.1|localhost)(:\d+)?$/.test(postgresUrl)) {
    throw new Error(`the benchmark drops and recreates its database: it only targets a local server, not ${postgresUrl}`);
  }
  const databaseName = pick(values.database, 'DATABASE') ?? 'raffle_bench';
  if (!/^[a-z_][a-z0-9_]*$/.test(databaseName)) throw new Error(`--database must be a plain identifier, got "${databaseName}"`);

  const only = pick(values.only, 'ONLY');
  return {
    durationSeconds: positiveNumber('duration', pick(values.duration, 'DURATION'), 10),
    warmupSeconds: positiveNumber('warmup', pick(values.warmup, 'WARMUP'), 3),
    connections: Math.round(positiveNumber('connections', pick(values.connections, 'CONNECTIONS'), 50)),
    threads: Math.round(positiveNumber('threads', pick(values.threads, 'THREADS'), 2)),
    rounds: Math.round(positiveNumber('rounds', pick(values.rounds, 'ROUNDS'), 1)),
    reseed: values.reseed ?? ['1', 'true'].includes(env.BENCH_RESEED ?? ''),
    mode,
    postgresUrl,
    databaseName,
    databasePoolSize: Math.round(positiveNumber('pool-size', pick(values['pool-size'], 'POOL_SIZE'), 16)),
    spec: {
      ...DEFAULT_SPEC,
      bigRaffleEntries: Math.round(positiveNumber('entries', pick(values.entries, 'ENTRIES'), DEFAULT_SPEC.bigRaffleEntries)),
      raffles: Math.round(positiveNumber('raffles', pick(values.raffles, 'RAFFLES'), DEFAULT_SPEC.raffles)),
    },
    only: only ? only.split(',').map((id) => id.trim()) : null,
    profile: values.profile ?? ['1', 'true'].includes(env.BENCH_PROFILE ?? ''),
  };
}
