import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { lazySerializerFactory } from '../src/serialization/lazy-serializers.js';

/** A response schema that counts how often the serializer compiler reads it. */
function countedSchema() {
  const counter = { reads: 0 };
  const plain = {
    type: 'object',
    properties: { id: { type: 'string' }, amount: { type: 'integer' }, tags: { type: 'array', items: { type: 'string' } } },
    required: ['id'],
  };
  const schema = new Proxy(plain, {
    get(target, key, receiver) {
      counter.reads++;
      return Reflect.get(target, key, receiver);
    },
  });
  return { schema, counter };
}

const PAYLOAD = { id: 'r_1', amount: 7, tags: ['a', 'b'], secret: 'not in the schema', nested: { deep: true } };
const apps: FastifyInstance[] = [];

async function appWith(schema: object, lazy: boolean): Promise<FastifyInstance> {
  const app = Fastify(lazy ? { schemaController: { compilersFactory: { buildSerializer: lazySerializerFactory } } } : {});
  app.get('/thing', { schema: { response: { 200: schema } } }, async () => PAYLOAD);
  await app.ready();
  apps.push(app);
  return app;
}

afterAll(async () => {
  for (const app of apps) await app.close();
});

describe('lazy response serializers', () => {
  it('compile nothing when the app becomes ready, and answer what Fastify\'s own serializer answers', async () => {
    const { schema, counter } = countedSchema();
    const lazy = await appWith(schema, true);
    const readsWhenReady = counter.reads;
    const eagerSchema = countedSchema();
    const eager = await appWith(eagerSchema.schema, false);
    // Fastify reads a few fields of every schema itself; the compile reads many more.
    expect(eagerSchema.counter.reads).toBeGreaterThan(readsWhenReady + 20);
    const [lazyAnswer, eagerAnswer] = [await lazy.inject('/thing'), await eager.inject('/thing')];
    expect(counter.reads).toBeGreaterThan(readsWhenReady + 20);
    expect(lazyAnswer.statusCode).toBe(200);
    expect(lazyAnswer.body).toBe(eagerAnswer.body);
    // The schema still decides what goes out: undeclared fields are dropped.
    expect(JSON.parse(lazyAnswer.body)).toEqual({ id: 'r_1', amount: 7, tags: ['a', 'b'] });
  });

  it('compile a schema once per process, whatever number of apps use it', async () => {
    const { schema, counter } = countedSchema();
    const first = await appWith(schema, true);
    await first.inject('/thing');
    const second = await appWith(schema, true);
    const readsBeforeSecondAnswer = counter.reads;
    expect((await second.inject('/thing')).body).toBe((await first.inject('/thing')).body);
    expect(counter.reads).toBe(readsBeforeSecondAnswer);
  });

  it('report a schema fast-json-stringify cannot compile on the first answer that needs it', async () => {
    const broken = { type: 'object', properties: { id: { $ref: '#/definitions/nowhere' } } };
    const app = await appWith(broken, true);
    expect((await app.inject('/thing')).statusCode).toBe(500);
  });
});
