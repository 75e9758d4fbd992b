import { parseArgs, type ParseArgsConfig } from 'node:util';
import { DEFAULT_SPEC, type DatasetSpec } from './dataset.js';

/** Where the dataset lives and what it holds: every command seeds (or reuses) the same one. */
export type DatasetOptions = {
  reseed: boolean;
  postgresUrl: string;
  databaseName: string;
  spec: DatasetSpec;
};

/** A wrk run against the data plane (the read routes, or entering raffles). */
export type LoadOptions = DatasetOptions & {
  durationSeconds: number;
  warmupSeconds: number;
  connections: number;
  threads: number;
  /** `dist` builds the data plane and runs compiled JS (production); `tsx` runs the sources. */
  mode: 'dist' | 'tsx';
  databasePoolSize: number;
  /** Each scenario is measured this many times, round-robin; the median round is reported. */
  rounds: number;
  /** Run only these scenario ids (targets whose inputs are missing are skipped). */
  only: string[] | null;
  /** Record a V8 CPU profile of the data plane into results/profiles/ and summarise it. */
  profile: boolean;
};

export type BenchOptions = LoadOptions & {
  /**
   * Run on a primary + streaming replica of the benchmark's own (a copy of the dataset), measuring
   * each read scenario twice in the same run: the data plane on the primary only, and with its reads
   * on the replica (DATABASE_READ_URL).
   */
  replica: boolean;
};

export type EntryLoadOptions = LoadOptions & {
  /** Entrants, each with a personal key: one entry per key per raffle, so this bounds a round's 201s. */
  entrantKeys: number;
  /** The drop scenarios: this many distinct entrants fire once each, over `dropConnections` connections. */
  dropEntrants: number;
  dropConnections: number;
  /**
   * Run on a Postgres the benchmark starts itself, with pg_stat_statements loaded, so the report can
   * say which statements an entry's time goes to (the machine's server does not preload it).
   */
  statsPostgres: boolean;
};

export type DrawOptions = DatasetOptions & {
  rounds: number;
  /** Winners the draw selects (the raffle's spots). */
  spots: number;
  /** After the measured rounds, one more draw under `--cpu-prof`, summarised. */
  profile: boolean;
};

export type ExportOptions = DatasetOptions & {
  /** Entries of the raffle the run creates and exports. */
  exportEntries: number;
  /** Each scenario is measured this many times, alternating; the median round is reported. */
  rounds: number;
  mode: 'dist' | 'tsx';
  databasePoolSize: number;
  /** NODE_OPTIONS of the data plane, e.g. a capped old generation, to see what the reads need rather than what V8 lets the heap grow to. */
  serverNodeOptions: string | null;
};

export type AllowlistOptions = LoadOptions & {
  /** Finalized winners of the allowlist raffle, each with a wallet of its own (one leaf each). */
  winners: number;
  /** Rounds of finalizing the allowlist raffle and the airdrop (each in a fresh process); medians reported. */
  finalizeRounds: number;
  /** Rounds of the build: publishDueAllowlists, then its parts one by one (each in a fresh process); medians reported. */
  buildRounds: number;
  /** Winners whose personal keys the proof load rotates through. */
  proofKeys: number;
};

const DATASET_USAGE = `  --reseed             drop and seed the benchmark database even if it holds the dataset
  --postgres-url=postgres://postgres@127.0.0.1:5432
  --database=raffle_bench
  --entries=1000000    entries in the big raffle (smaller values make a quick trial run)
  --raffles=10000`;

const LOAD_USAGE = `  --duration=10        seconds measured per scenario
  --warmup=3           seconds of discarded load before each measurement
  --connections=50     wrk connections
  --threads=2          wrk threads
  --rounds=1           measure every scenario this many times, round-robin, and report the median
  --mode=dist|tsx      run the built data plane (default; falls back to tsx if the build fails) or its sources
  --pool-size=16       DATABASE_POOL_SIZE of the data plane`;

const DATA_PLANE_USAGE = `pnpm bench [-- options]   (each option also reads BENCH_<NAME> from the environment)
${LOAD_USAGE}
${DATASET_USAGE}
  --only=bare,entries-50   run only these scenarios (bare, entries-50, entries-100, entries-250,
                       entries-deep-100, public-raffles, malformed-key)
  --profile            CPU-profile the data plane (results/profiles/) and print where its time went
  --replica            copy the dataset onto a primary + streaming replica of the run's own, and measure
                       every read scenario twice: the data plane on the primary only, then with its reads
                       on the replica (DATABASE_READ_URL); the run fails if those reads stayed on the primary`;

const ENTRY_LOAD_USAGE = `pnpm bench:entries [-- options]   (each option also reads BENCH_<NAME> from the environment)
${LOAD_USAGE}
${DATASET_USAGE}
  --keys=100000        entrants with a personal key (entries:write); a round sends each key at most once
  --drop-entrants=20000  distinct entrants of each drop scenario, each entering once
  --drop-connections=200 connections the drop sends them over
  --stats-postgres     run on a Postgres of the benchmark's own with pg_stat_statements loaded (the
                       machine's binaries and its write settings, copied from --postgres-url; data kept
                       in the OS temp dir between runs), to report where each scenario's Postgres time goes
  --only=entries-post,entries-post-fcfs   run only these scenarios (entries-post, entries-post-fcfs,
                       drop-fcfs, drop-raffle, drop-token-gated, drop-token-gated-beside-healthy,
                       drop-token-gated-beside-hostile, and the opt-in entries-post-one-ip)
  --profile            CPU-profile the data plane (results/profiles/) and print where its time went`;

const DRAW_USAGE = `pnpm bench:draw [-- options]   (each option also reads BENCH_<NAME> from the environment)
  --rounds=3           draws measured (each in a fresh child process, rolled back); medians reported
  --spots=100          winners drawn
  --profile            one more draw under node --cpu-prof, summarised (results/profiles/)
${DATASET_USAGE}`;


const EXPORT_USAGE = `pnpm bench:export [-- options]   (each option also reads BENCH_<NAME> from the environment)
  --export-entries=100000  entries of the raffle exported (created for the run, removed after it)
  --rounds=3           each scenario measured this many times, alternating, each on a fresh data plane; medians reported
  --mode=dist|tsx      run the built data plane (default; falls back to tsx if the build fails) or its sources
  --pool-size=16       DATABASE_POOL_SIZE of the data plane
  --server-node-options="--max-old-space-size=96"   NODE_OPTIONS of the data plane (none by default)
${DATASET_USAGE}`;

const ALLOWLIST_USAGE = `pnpm bench:allowlist [-- options]   (each option also reads BENCH_<NAME> from the environment)
  --only=allowlist-build,allowlist-proofs   run only these scenarios (both by default)
  --winners=100000     finalized winners of the allowlist raffle, each with a wallet of its own
  --finalize-rounds=1  rounds of finalizing the allowlist raffle and a same-size airdrop (minutes each
                       at 100,000 winners), each in a fresh process
  --build-rounds=3     rounds of the build: publishDueAllowlists, then its parts one by one, each in a fresh process
  --proof-keys=20000   winners whose personal keys the proof load sends, each request the next one
${LOAD_USAGE}
${DATASET_USAGE}
  --profile            CPU-profile the data plane (results/profiles/) and print where its time went`;

const DATASET_FLAGS = {
  reseed: { type: 'boolean' },
  'postgres-url': { type: 'string' },
  database: { type: 'string' },
  entries: { type: 'string' },
  raffles: { type: 'string' },
  help: { type: 'boolean' },
} as const satisfies ParseArgsConfig['options'];

const LOAD_FLAGS = {
  ...DATASET_FLAGS,
  duration: { type: 'string' },
  warmup: { type: 'string' },
  connections: { type: 'string' },
  threads: { type: 'string' },
  rounds: { type: 'string' },
  mode: { type: 'string' },
  'pool-size': { type: 'string' },
  only: { type: 'string' },
  profile: { type: 'boolean' },
} as const satisfies ParseArgsConfig['options'];

type Values = Record<string, string | boolean | undefined>;

function parse(argv: string[], options: ParseArgsConfig['options'], usage: string): Values {
  const values = parseArgs({ args: argv.filter((a) => a !== '--'), options }).values as Values;
  if (values.help) {
    console.log(usage);
    process.exit(0);
  }
  return values;
}

function positiveNumber(name: string, value: string | undefined, fallback: number, usage: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value.replace(/s$/, ''));
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number, got "${value}"\n\n${usage}`);
  return n;
}

/** Flags win over BENCH_* environment variables, which win over defaults. */
function reader(values: Values, env: NodeJS.ProcessEnv, usage: string) {
  const string = (flag: string, name: string) => (values[flag] as string | undefined) ?? env[`BENCH_${name}`];
  const flag = (name: string, envName: string) => (values[name] as boolean | undefined) ?? ['1', 'true'].includes(env[`BENCH_${envName}`] ?? '');
  const number = (name: string, envName: string, fallback: number) => positiveNumber(name, string(name, envName), fallback, usage);
  const integer = (name: string, envName: string, fallback: number) => Math.round(number(name, envName, fallback));
  return { string, flag, number, integer };
}

function datasetOptions(read: ReturnType<typeof reader>): DatasetOptions {
  const postgresUrl = (read.string('postgres-url', 'POSTGRES_URL') ?? 'postgres://postgres@127.0.0.1:5432').replace(/\/$/, '');
  if (!/@(127\.0\.0\.1|localhost)(:\d+)?$/.test(postgresUrl)) {
    throw new Error(`the benchmark drops and recreates its database: it only targets a local server, not ${postgresUrl}`);
  }
  const databaseName = read.string('database', 'DATABASE') ?? 'raffle_bench';
  if (!/^[a-z_][a-z0-9_]*$/.test(databaseName)) throw new Error(`--database must be a plain identifier, got "${databaseName}"`);
  return {
    reseed: read.flag('reseed', 'RESEED'),
    postgresUrl,
    databaseName,
    spec: {
      ...DEFAULT_SPEC,
      bigRaffleEntries: read.integer('entries', 'ENTRIES', DEFAULT_SPEC.bigRaffleEntries),
      raffles: read.integer('raffles', 'RAFFLES', DEFAULT_SPEC.raffles),
    },
  };
}

function loadOptions(read: ReturnType<typeof reader>): LoadOptions {
  const mode = read.string('mode', 'MODE') ?? 'dist';
  if (mode !== 'dist' && mode !== 'tsx') throw new Error(`--mode must be dist or tsx, got "${mode}"`);
  const only = read.string('only', 'ONLY');
  return {
    ...datasetOptions(read),
    durationSeconds: read.number('duration', 'DURATION', 10),
    warmupSeconds: read.number('warmup', 'WARMUP', 3),
    connections: read.integer('connections', 'CONNECTIONS', 50),
    threads: read.integer('threads', 'THREADS', 2),
    rounds: read.integer('rounds', 'ROUNDS', 1),
    mode,
    databasePoolSize: read.integer('pool-size', 'POOL_SIZE', 16),
    only: only ? only.split(',').map((id) => id.trim()) : null,
    profile: read.flag('profile', 'PROFILE'),
  };
}

/** `pnpm bench`: the read routes. */
export function readOptions(argv: string[], env: NodeJS.ProcessEnv): BenchOptions {
  const read = reader(parse(argv, { ...LOAD_FLAGS, replica: { type: 'boolean' } }, DATA_PLANE_USAGE), env, DATA_PLANE_USAGE);
  return { ...loadOptions(read), replica: read.flag('replica', 'REPLICA') };
}

/** `pnpm bench:entries`: entering raffles under load. */
export function readEntryLoadOptions(argv: string[], env: NodeJS.ProcessEnv): EntryLoadOptions {
  const flags = {
    ...LOAD_FLAGS,
    keys: { type: 'string' },
    'drop-entrants': { type: 'string' },
    'drop-connections': { type: 'string' },
    'stats-postgres': { type: 'boolean' },
  } as const;
  const read = reader(parse(argv, flags, ENTRY_LOAD_USAGE), env, ENTRY_LOAD_USAGE);
  return {
    ...loadOptions(read),
    entrantKeys: read.integer('keys', 'KEYS', 100_000),
    dropEntrants: read.integer('drop-entrants', 'DROP_ENTRANTS', 20_000),
    dropConnections: read.integer('drop-connections', 'DROP_CONNECTIONS', 200),
    statsPostgres: read.flag('stats-postgres', 'STATS_POSTGRES'),
  };
}

/** `pnpm bench:draw`: the draw of the big raffle. */
export function readDrawOptions(argv: string[], env: NodeJS.ProcessEnv): DrawOptions {
  const flags = { ...DATASET_FLAGS, rounds: { type: 'string' }, spots: { type: 'string' }, profile: { type: 'boolean' } } as const;
  const read = reader(parse(argv, flags, DRAW_USAGE), env, DRAW_USAGE);
  return {
    ...datasetOptions(read),
    rounds: read.integer('rounds', 'ROUNDS', 3),
    spots: read.integer('spots', 'SPOTS', 100),
    profile: read.flag('profile', 'PROFILE'),
  };
}

/** `pnpm bench:export`: a raffle's entries as one CSV download, against paging the JSON list. */
export function readExportOptions(argv: string[], env: NodeJS.ProcessEnv): ExportOptions {
  const flags = {
    ...DATASET_FLAGS,
    'export-entries': { type: 'string' },
    rounds: { type: 'string' },
    mode: { type: 'string' },
    'pool-size': { type: 'string' },
    'server-node-options': { type: 'string' },
  } as const;
  const read = reader(parse(argv, flags, EXPORT_USAGE), env, EXPORT_USAGE);
  const mode = read.string('mode', 'MODE') ?? 'dist';
  if (mode !== 'dist' && mode !== 'tsx') throw new Error(`--mode must be dist or tsx, got "${mode}"`);
  return {
    ...datasetOptions(read),
    exportEntries: read.integer('export-entries', 'EXPORT_ENTRIES', 100_000),
    rounds: read.integer('rounds', 'ROUNDS', 3),
    mode,
    databasePoolSize: read.integer('pool-size', 'POOL_SIZE', 16),
    serverNodeOptions: read.string('server-node-options', 'SERVER_NODE_OPTIONS') || null,
  };
}

/** `pnpm bench:allowlist`: building a 100,000-winner allowlist, and serving its proofs. */
export function readAllowlistOptions(argv: string[], env: NodeJS.ProcessEnv): AllowlistOptions {
  const flags = { ...LOAD_FLAGS, winners: { type: 'string' }, 'finalize-rounds': { type: 'string' }, 'build-rounds': { type: 'string' }, 'proof-keys': { type: 'string' } } as const;
  const read = reader(parse(argv, flags, ALLOWLIST_USAGE), env, ALLOWLIST_USAGE);
  return {
    ...loadOptions(read),
    winners: read.integer('winners', 'WINNERS', 100_000),
    finalizeRounds: read.integer('finalize-rounds', 'FINALIZE_ROUNDS', 1),
    buildRounds: read.integer('build-rounds', 'BUILD_ROUNDS', 3),
    proofKeys: read.integer('proof-keys', 'PROOF_KEYS', 20_000),
  };
}
