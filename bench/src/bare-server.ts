import Fastify from 'fastify';

/**
 * The baseline: Fastify with no plugins, no logging and no database, answering one constant
 * JSON document. Its throughput on this machine is the ceiling the data plane is measured against.
 */
const app = Fastify({ logger: false });
const body = { status: 'ok', service: 'bare-fastify' };

app.get(
  '/',
  { schema: { response: { 200: { type: 'object', properties: { status: { type: 'string' }, service: { type: 'string' } } } } } },
  async () => body,
);

process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
