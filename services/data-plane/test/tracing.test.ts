import { startTracing } from '@raffle/service-kit';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-node';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './support/app.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { createLifecycleWorld, type LifecycleWorld } from './support/lifecycle.js';

// Tracing is per process: this file turns it on, with spans kept in memory.
const exporter = new InMemorySpanExporter();
const stopTracing = startTracing('data-plane', { exporter })!;

let db: TestDatabase;
let app: FastifyInstance;
let world: LifecycleWorld;

beforeAll(async () => {
  db = await createTestDatabase();
  world = await createLifecycleWorld(db.database);
  app = await buildTestApp(db.database, db.url);
});
afterAll(async () => {
  await app?.close();
  await db?.drop();
  await stopTracing();
});

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';

describe('tracing (OTEL_EXPORTER_OTLP_ENDPOINT set)', () => {
  it("a request's span continues the caller's traceparent, and the events it writes carry the trace on", async () => {
    const raffle = await world.open();
    const entrant = await world.entrant();
    const answer = await app.inject({
      method: 'POST',
      url: `/api/v1/raffles/${raffle.slug}/entries`,
      headers: { ...entrant.headers, traceparent: `00-${TRACE_ID}-${CALLER_SPAN}-01` },
    });
    expect(answer.statusCode, answer.body).toBe(201);

    const server = exporter.getFinishedSpans().find((s) => s.name === 'POST /api/v1/raffles/:slug/entries');
    expect(server).toBeDefined();
    expect(server!.spanContext().traceId).toBe(TRACE_ID);
    expect(server!.parentSpanContext?.spanId).toBe(CALLER_SPAN);
    expect(server!.attributes['http.response.status_code']).toBe(201);

    const [row] = await db.database.sql<{ traceContext: string | null }[]>`
      select trace_context as "traceContext" from event_outbox where type = 'entry.created' and payload::jsonb->'data'->>'id' = ${(answer.json() as { id: string }).id}`;
    expect(row!.traceContext).toBe(`00-${TRACE_ID}-${server!.spanContext().spanId}-01`);
  });

  it('without a traceparent a request starts a trace of its own', async () => {
    exporter.reset();
    const entrant = await world.entrant();
    expect((await app.inject({ method: 'GET', url: '/api/v1/me', headers: entrant.headers })).statusCode).toBe(200);
    const [span] = exporter.getFinishedSpans().filter((s) => s.name === 'GET /api/v1/me');
    expect(span!.parentSpanContext).toBeUndefined();
    expect(span!.spanContext().traceId).toMatch(/^[0-9a-f]{32}$/);
  });
});
