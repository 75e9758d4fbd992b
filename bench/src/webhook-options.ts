import { parseArgs } from 'node:util';

export type WebhookRunKind = 'healthy' | 'dead';

export type WebhookBenchOptions = {
  postgresUrl: string;
  databaseName: string;
  natsServer: string;
  mode: 'dist' | 'tsx';
  /** A compiled dispatcher (its server.js) to run as it is instead of building one: to compare builds. */
  dispatcherServer: string | null;
  warmupSeconds: number;
  durationSeconds: number;
  eventsPerSecond: number;
  eventsPerTransaction: number;
  endpoints: number;
  /** Dispatcher processes sharing the stream's durable consumer (the service scales horizontally). */
  instances: number;
  runs: WebhookRunKind[];
  /** Offered rates (events/s) to step through, healthy endpoints only: the highest that keeps up is the sustainable rate. */
  steps: number[] | null;
  /** How long the deliveries may take to catch up after the writer stops. */
  drainSeconds: number;
  profile: boolean;
  /** Extra dispatcher variables (KEY=VALUE,KEY=VALUE), e.g. to compare settings. */
  dispatcherEnv: Record<string, string>;
};

const USAGE = `pnpm bench:webhooks [-- options]   (each option also reads BENCH_<NAME> from the environment)
  --warmup=10              seconds of load before the measured window
  --duration=30            seconds measured
  --events-per-second=1000 events committed per second (the writer keeps this pace)
  --per-transaction=10     events per transaction (1000/s in tens = a transaction every 10 ms)
  --endpoints=5            healthy endpoints, each subscribed to every event
  --instances=1            dispatcher processes, sharing the durable consumer and the outbox
  --runs=healthy,dead      healthy: only the healthy endpoints; dead: one more endpoint that accepts
                           requests and never answers
  --steps=600,800,1000     instead of --runs: one healthy run per offered rate (events/s), reporting which
                           rates the dispatcher keeps up with and the CPU each delivery costs
  --drain=60               seconds allowed after the writer stops for every delivery to arrive
  --mode=dist|tsx          run the built dispatcher (default; falls back to tsx if the build fails) or its sources
  --dispatcher-server=path a compiled dispatcher's server.js to run as it is, without building (to compare builds)
  --profile                CPU-profile the dispatcher (results/profiles/) and print where its time went
  --dispatcher-env=K=V,..  extra dispatcher configuration (defaults are production's)
  --postgres-url=postgres://postgres@127.0.0.1:5432
  --database=raffle_bench_webhooks   created fresh (and dropped) for every run
  --nats-server=/usr/sbin/nats-server   a private JetStream server is started for every run`;

const FLAGS = {
  warmup: { type: 'string' },
  duration: { type: 'string' },
  'events-per-second': { type: 'string' },
  'per-transaction': { type: 'string' },
  endpoints: { type: 'string' },
  instances: { type: 'string' },
  runs: { type: 'string' },
  steps: { type: 'string' },
  drain: { type: 'string' },
  mode: { type: 'string' },
  'dispatcher-server': { type: 'string' },
  profile: { type: 'boolean' },
  'dispatcher-env': { type: 'string' },
  'postgres-url': { type: 'string' },
  database: { type: 'string' },
  'nats-server': { type: 'string' },
  help: { type: 'boolean' },
} as const;

/** Flags win over BENCH_* environment variables, which win over defaults. */
export function readWebhookOptions(argv: string[], env: NodeJS.ProcessEnv): WebhookBenchOptions {
  const values = parseArgs({ args: argv.filter((a) => a !== '--'), options: FLAGS }).values as Record<string, string | boolean | undefined>;
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const envName = (flag: string) => `BENCH_${flag.toUpperCase().replace(/-/g, '_')}`;
  const string = (flag: string) => (values[flag] as string | undefined) ?? env[envName(flag)];
  const number = (flag: string, fallback: number) => {
    const raw = string(flag);
    if (raw === undefined || raw === '') return fallback;
    const n = Number(raw.replace(/s$/, ''));
    if (!Number.isFinite(n) || n <= 0) throw new Error(`--${flag} must be a positive number, got "${raw}"\n\n${USAGE}`);
    return n;
  };

  const postgresUrl = (string('postgres-url') ?? 'postgres://postgres@127.0.0.1:5432').replace(/\/$/, '');
  if (!/@(127\.0\.0\.1|localhost)(:\d+)?$/.test(postgresUrl)) {
    throw new Error(`the benchmark drops and recreates its database: it only targets a local server, not ${postgresUrl}`);
  }
  const databaseName = string('database') ?? 'raffle_bench_webhooks';
  if (!/^[a-z_][a-z0-9_]*$/.test(databaseName)) throw new Error(`--database must be a plain identifier, got "${databaseName}"`);
  const mode = string('mode') ?? 'dist';
  if (mode !== 'dist' && mode !== 'tsx') throw new Error(`--mode must be dist or tsx, got "${mode}"`);
  const runs = (string('runs') ?? 'healthy,dead').split(',').map((r) => r.trim());
  const unknown = runs.filter((r) => r !== 'healthy' && r !== 'dead');
  if (unknown.length || runs.length === 0) throw new Error(`--runs takes healthy and/or dead, got "${runs.join(',')}"`);
  const stepsText = string('steps');
  const steps = stepsText ? stepsText.split(',').map((x) => Number(x.trim())) : null;
  if (steps?.some((x) => !Number.isFinite(x) || x <= 0)) throw new Error(`--steps takes positive event rates, got "${stepsText}"`);
  const dispatcherEnv = Object.fromEntries(
    (string('dispatcher-env') ?? '')
      .split(',')
      .filter(Boolean)
      .map((pair) => {
        const at = pair.indexOf('=');
        if (at <= 0) throw new Error(`--dispatcher-env takes KEY=VALUE pairs, got "${pair}"`);
        return [pair.slice(0, at), pair.slice(at + 1)];
      }),
  );
  return {
    postgresUrl,
    databaseName,
    natsServer: string('nats-server') ?? '/usr/sbin/nats-server',
    mode,
    dispatcherServer: string('dispatcher-server') ?? null,
    warmupSeconds: number('warmup', 10),
    durationSeconds: number('duration', 30),
    eventsPerSecond: number('events-per-second', 1000),
    eventsPerTransaction: Math.round(number('per-transaction', 10)),
    endpoints: Math.round(number('endpoints', 5)),
    instances: Math.round(number('instances', 1)),
    runs: runs as WebhookRunKind[],
    steps,
    drainSeconds: number('drain', 60),
    profile: ['1', 'true'].includes(String(values.profile ?? env.BENCH_PROFILE ?? '')),
    dispatcherEnv,
  };
}
