import { randomBytes } from 'node:crypto';
import { createDatabase, findApiKeyByHash, runMigrations, STATEMENT_BOUNDS, type Database, type PoolMode } from '@raffle/db';
import { startPrivatePgBouncer } from '@raffle/service-kit/testing/faults';

/**
 * What transaction pooling costs the hot path (docs/decisions/0037): the per-request key lookup
 * (`findApiKeyByHash`) alone, and in a two-statement transaction, with 16 callers at once for
 * DURATION_MS each, on three pools of 10: prepared statements straight to Postgres (session mode),
 * unprepared straight to Postgres, and unprepared through a private PgBouncer in transaction mode
 * (default_pool_size 10). A miss: the probe is cheapest, so parse-and-plan weighs most. Run it
 * alone (`flock /tmp/bench.lock pnpm pooler-cost`): other load on the machine moves the numbers.
 */

const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const CALLERS = 16;
const WARM_UP_MS = 1000;
const DURATION_MS = Number(process.env.POOLER_COST_DURATION_MS ?? 8000);

type Workload = { name: string; run: (database: Database) => Promise<unknown> };

const WORKLOADS: Workload[] = [
  { name: 'key lookup', run: (database) => findApiKeyByHash(database.sql, randomBytes(32).toString('hex')) },
  {
    name: 'transaction of two lookups',
    run: (database) =>
      database.sql.begin(async (tx) => {
        await findApiKeyByHash(tx as unknown as typeof database.sql, randomBytes(32).toString('hex'));
        await findApiKeyByHash(tx as unknown as typeof database.sql, randomBytes(32).toString('hex'));
      }),
  },
];

async function measure(database: Database, workload: Workload): Promise<{ perSecond: number; p50: number; p99: number }> {
  const latencies: number[] = [];
  let measuring = false;
  let stopAt = Date.now() + WARM_UP_MS;
  const caller = async () => {
    while (Date.now() < stopAt) {
      const started = performance.now();
      await workload.run(database);
      if (measuring) latencies.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: CALLERS }, caller));
  measuring = true;
  stopAt = Date.now() + DURATION_MS;
  await Promise.all(Array.from({ length: CALLERS }, caller));
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
  return { perSecond: Math.round(latencies.length / (DURATION_MS / 1000)), p50: at(0.5), p99: at(0.99) };
}

const name = `pooler_cost_${randomBytes(4).toString('hex')}`;
const admin = createDatabase({ url: ADMIN_URL, max: 1 });
await admin.sql.unsafe(`create database ${name}`);
const directUrl = Object.assign(new URL(ADMIN_URL), { pathname: `/${name}` }).toString();
const adminUrl = new URL(ADMIN_URL);
const pooler = await startPrivatePgBouncer({ targetHost: adminUrl.hostname, targetPort: Number(adminUrl.port || 5432), poolMode: 'transaction', defaultPoolSize: 10 });
try {
  await runMigrations(directUrl);
  // The transaction-mode pool pointed at Postgres itself separates the cost of not preparing from the pooler's hop.
  const setups: { label: string; url: string; poolMode: PoolMode }[] = [
    { label: 'direct, prepared (session mode)', url: directUrl, poolMode: 'session' },
    { label: 'direct, unprepared (transaction-mode pool)', url: directUrl, poolMode: 'transaction' },
    { label: 'PgBouncer, unprepared (transaction mode)', url: pooler.url(name), poolMode: 'transaction' },
  ];
  const rows: string[] = [];
  for (const workload of WORKLOADS) {
    for (const setup of setups) {
      const database = createDatabase({ url: setup.url, max: 10, poolMode: setup.poolMode, statementBounds: STATEMENT_BOUNDS.request });
      try {
        const result = await measure(database, workload);
        rows.push(`| ${workload.name} | ${setup.label} | ${result.perSecond} | ${result.p50.toFixed(2)} | ${result.p99.toFixed(2)} |`);
      } finally {
        await database.close();
      }
    }
  }
  console.log(`${CALLERS} callers, pools of 10, ${DURATION_MS / 1000} s each\n`);
  console.log('| workload | pool | per second | p50 ms | p99 ms |\n|---|---|---|---|---|');
  console.log(rows.join('\n'));
} finally {
  await pooler.destroy();
  await admin.sql.unsafe(`drop database if exists ${name} with (force)`);
  await admin.close();
}
