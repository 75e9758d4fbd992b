import { context, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-node';
import { startTracing } from '@raffle/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DispatcherApp } from '../src/app.js';
import { buildTestApp, isolatedStreamNames } from './support/app.js';
import { waitUntil } from './support/conditions.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { createOwners } from './support/fixtures.js';
import { startSink } from './support/sink.js';

// Tracing is per process: this file turns it on, with spans kept in memory.
const exporter = new InMemorySpanExporter();
const stopTracing = startTracing('webhook-dispatcher', { exporter })!;

let testDb: TestDatabase;
let app: DispatcherApp;
const sinks: Awaited<ReturnType<typeof startSink>>[] = [];

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await buildTestApp(testDb.database, testDb.url, isolatedStreamNames());
  await app.dispatcher.consumerStarted;
});
afterAll(async () => {
  await Promise.all(sinks.map((s) => s.close()));
  await app?.close();
  await testDb?.drop();
  await stopTracing();
});

describe('tracing through the outbox', () => {
  it("a delivery continues the trace its event was written in, and its POST carries the delivery span's traceparent", async () => {
    const owners = await createOwners(testDb.database.db);
    const sink = await startSink();
    sinks.push(sink);
    await owners.endpoint({ url: `${sink.url}/hook` });

    // The event is written inside a span, as a request's handler writes it (data plane, management).
    const request = trace.getTracer('test').startSpan('POST /api/v1/raffles/:slug/entries');
    const eventId = await context.with(trace.setSpan(ROOT_CONTEXT, request), () => owners.workspaceEvent());
    request.end();
    await sink.waitFor(1, 10_000);
    // The span ends once the answer is read, a moment after the receiver has the request.
    const deliverySpan = () => exporter.getFinishedSpans().find((s) => s.name === 'webhook delivery' && s.attributes['webhook.event_id'] === eventId);
    await waitUntil('the delivery span to end', () => deliverySpan() !== undefined, 5000);
    const delivery = deliverySpan();
    expect(delivery!.spanContext().traceId).toBe(request.spanContext().traceId);
    expect(delivery!.parentSpanContext?.spanId).toBe(request.spanContext().spanId);
    expect(delivery!.attributes['http.response.status_code']).toBe(204);

    const received = sink.received[0]!;
    expect(received.headers['webhook-id']).toBe(eventId);
    expect(received.headers.traceparent).toBe(`00-${request.spanContext().traceId}-${delivery!.spanContext().spanId}-01`);
  });
});
