import type { WebhookDeliveryAttempt } from '@raffle/sdk';
import type { ReactNode } from 'react';
import { DateTime } from '../../ui/DateTime.js';
import { DeliveryStatus } from './delivery-status.js';

function outcome(attempt: WebhookDeliveryAttempt): string {
  if (attempt.status === 'succeeded') return 'succeeded';
  return attempt.failureKind ? `failed (${attempt.failureKind.replace(/_/g, ' ')})` : 'failed';
}

/** The payload indented for reading; as sent when it is not JSON. */
function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** One attempt: what was sent, what came back and how long it took, and what happens next. */
export function DeliveryAttemptCard({ attempt, children }: { attempt: WebhookDeliveryAttempt; children?: ReactNode }) {
  return (
    <li className="card" data-delivery-id={attempt.deliveryId} data-event-id={attempt.eventId} data-delivery-status={attempt.deliveryStatus}>
      <h3 className="wh-card-title">
        <code>{attempt.eventType}</code> <DeliveryStatus status={attempt.deliveryStatus} />
      </h3>
      <dl className="wh-facts">
        <dt>Event id</dt>
        <dd>
          <code>{attempt.eventId}</code>
        </dd>
        <dt>Attempt</dt>
        <dd>
          #{attempt.attemptNumber}, {outcome(attempt)}
        </dd>
        <dt>Response</dt>
        <dd>{attempt.responseStatus === undefined ? 'none' : `HTTP ${attempt.responseStatus}`}</dd>
        <dt>Latency</dt>
        <dd>{attempt.latencyMs} ms</dd>
        <dt>Attempted</dt>
        <dd>
          <DateTime value={attempt.createdAt} />
        </dd>
        {attempt.nextAttemptAt ? (
          <>
            <dt>Next retry</dt>
            <dd>
              <DateTime value={attempt.nextAttemptAt} />
            </dd>
          </>
        ) : null}
      </dl>
      {attempt.payload !== undefined ? (
        <details>
          <summary>Payload sent</summary>
          <pre className="wh-http-body">{prettyJson(attempt.payload)}</pre>
        </details>
      ) : null}
      {attempt.responseBody ? (
        <details>
          <summary>Response body</summary>
          <pre className="wh-http-body">{attempt.responseBody}</pre>
        </details>
      ) : null}
      {children}
    </li>
  );
}
