import { propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { DeliveryJob } from '@raffle/db';
import type { SendResult } from '@raffle/webhooks';

const tracer = trace.getTracer('@raffle/webhook-dispatcher');

/**
 * A span for one delivery attempt, in the trace of the request that wrote its event (its
 * `traceparent`, kept with the outbox row), and the `traceparent` the POST carries so the
 * receiver can continue it. No-ops, and no header, while tracing is off.
 */
export function startDeliverySpan(job: DeliveryJob) {
  const parent = job.traceContext ? propagation.extract(ROOT_CONTEXT, { traceparent: job.traceContext }) : ROOT_CONTEXT;
  const span = tracer.startSpan(
    'webhook delivery',
    {
      kind: SpanKind.CLIENT,
      attributes: {
        'webhook.event_id': job.eventId,
        'webhook.event_type': job.eventType,
        'webhook.delivery_id': job.deliveryId,
        'webhook.endpoint_id': job.endpointId,
        'webhook.attempt': job.attemptsMade + 1,
      },
    },
    parent,
  );
  const carrier: { traceparent?: string } = {};
  propagation.inject(trace.setSpan(parent, span), carrier);
  return {
    traceparent: carrier.traceparent,
    end(result: SendResult) {
      if (result.status !== null) span.setAttribute('http.response.status_code', result.status);
      if (result.kind === 'failure') span.setStatus({ code: SpanStatusCode.ERROR, message: result.failureKind });
      span.end();
    },
  };
}
