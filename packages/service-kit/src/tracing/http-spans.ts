import { context, propagation, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

const tracer = trace.getTracer('@raffle/service-kit');
const spans = new WeakMap<FastifyRequest, Span>();

/**
 * A server span per request, child of the caller's `traceparent` when it sent one, and the
 * active context for everything the request does: an outbox event written while handling it
 * carries the trace on to the webhook deliveries (decision 0011). A no-op unless tracing was
 * started (startTracing).
 */
async function httpSpansPlugin(app: FastifyInstance) {
  app.addHook('onRequest', (request, _reply, done) => {
    const parent = propagation.extract(context.active(), request.headers);
    const span = tracer.startSpan(`${request.method} ${request.routeOptions.url ?? 'unmatched'}`, {
      kind: SpanKind.SERVER,
      attributes: { 'http.request.method': request.method, 'http.route': request.routeOptions.url ?? '', 'url.path': request.url.split('?')[0] },
    }, parent);
    spans.set(request, span);
    // The rest of the request runs inside the span's context (the context manager carries it across awaits).
    context.with(trace.setSpan(parent, span), done);
  });
  app.addHook('onResponse', async (request, reply) => {
    const span = spans.get(request);
    if (!span) return;
    span.setAttribute('http.response.status_code', reply.statusCode);
    if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  });
}

export default fp(httpSpansPlugin, { name: 'http-spans' });
