import Fastify from 'fastify';
import postgres from 'postgres';

/**
 * The durable-write ceiling: Fastify with no plugins and no logging, and one route that commits
 * one single-row INSERT per request, autocommitted through postgres.js (a prepared statement),
 * on the benchmark's database with the data plane's pool size. Nothing can enter a raffle faster
 * than this machine commits a row, so bench:entries reports every entering figure against it.
 * The table is the benchmark's own (see DURABLE_WRITES_TABLE in run-entries.ts).
 */
const sql = postgres(process.env.DATABASE_URL!, { max: Number(process.env.DATABASE_POOL_SIZE), prepare: true, onnotice: () => {} });
const app = Fastify({ logger: false });

app.get('/health', async () => ({ status: 'ok' }));

app.post('/', async (request, reply) => {
  // What an entry carries that identifies its entrant: the key and the forwarded address.
  const entrant = `${request.headers.authorization ?? ''}|${request.headers['x-forwarded-for'] ?? ''}`;
  const [row] = await sql<{ id: string }[]>`insert into bench_durable_writes (entrant) values (${entrant}) returning id`;
  return reply.status(201).send({ id: row!.id });
});

process.on('SIGTERM', () => void app.close().then(() => sql.end({ timeout: 5 })).then(() => process.exit(0)));
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
