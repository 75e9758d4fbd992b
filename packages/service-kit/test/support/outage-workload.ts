/**
 * A database workload run in a child process by postgres-outage.test.ts, so that an uncaught
 * exception inside the driver (the postgres.js nextWrite bug) shows as this process' exit code
 * instead of taking the test runner down. Prints `SUMMARY <json>` (see QueryOutcomes) and exits 0.
 *
 *   outage-workload.ts reserved <url>   a reserved connection whose backend is terminated mid-writes
 *   outage-workload.ts load <url>       reads and transactional writes through createDatabase,
 *                                       until the parent writes `finish` on stdin
 */
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { createDatabase } from '@raffle/db';
import postgres from 'postgres';
import { QueryOutcomes } from './query-outcomes.js';

const SETTLE_TIMEOUT_MS = 15_000;
/** Long enough for the terminated backend's socket close to reach the client. */
const SOCKET_CLOSE_SEEN_MS = 200;
const [mode, url] = process.argv.slice(2);
if (!url) throw new Error('usage: outage-workload.ts reserved|load <url>');

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

async function reservedConnectionTerminated(url: string) {
  const outcomes = new QueryOutcomes();
  const sql = postgres(url, { max: 2, onnotice: () => {} });
  const killer = postgres(url, { max: 1 });
  const reserved = await sql.reserve();
  const [row] = await reserved<{ pid: number }[]>`select pg_backend_pid() as pid`;

  // Queries in flight on the connection when its backend is terminated...
  for (let i = 0; i < 20; i++) void outcomes.track(reserved`select pg_sleep(0.02)`);
  await killer`select pg_terminate_backend(${row!.pid})`;
  // ...queries issued right after, before the client has seen the socket close (each on its own
  // turn of the event loop, as request handlers would), and once it has: the unpatched driver
  // leaves the first kind waiting forever and throws from setImmediate on the second.
  const issueQueries = async (count: number) => {
    for (let i = 0; i < count; i++) {
      void outcomes.track(i % 2 ? reserved`select ${i}::int as i` : reserved`select 1`);
      await nextTurn();
    }
  };
  await issueQueries(20);
  await sleep(SOCKET_CLOSE_SEEN_MS);
  await issueQueries(30);
  const summary = await outcomes.settle(SETTLE_TIMEOUT_MS);
  await killer.end({ timeout: 1 });
  await sql.end({ timeout: 1 });
  return summary;
}

async function loadUntilFinished(url: string) {
  const outcomes = new QueryOutcomes();
  const database = createDatabase({ url, max: 8, applicationName: 'outage-workload' });
  let finished = false;
  createInterface({ input: process.stdin }).on('line', (line) => {
    if (line.trim() === 'finish') finished = true;
  });
  // A client that got an error comes back a moment later, as a retrying caller would.
  const pauseAfterError = (value: unknown) => (value === undefined ? sleep(5) : undefined);

  const reader = async (n: number) => {
    while (!finished) await pauseAfterError(await outcomes.track(database.sql`select ${n}::int as n, pg_sleep(0.001)`));
  };
  const writer = async (n: number) => {
    while (!finished) {
      const insert = database.sql.begin((tx) => tx`insert into outage_probe (n) values (${n}) returning id`);
      await pauseAfterError(await outcomes.track(insert, { write: true }));
    }
  };
  const workers = [...[1, 2, 3, 4, 5, 6].map(reader), ...[1, 2, 3].map(writer)];
  process.stdout.write('READY\n');
  await Promise.all(workers);
  const summary = await outcomes.settle(SETTLE_TIMEOUT_MS);
  await database.close();
  return summary;
}

const summary = mode === 'reserved' ? await reservedConnectionTerminated(url) : await loadUntilFinished(url);
process.stdout.write(`SUMMARY ${JSON.stringify(summary)}\n`);
process.exit(0);
