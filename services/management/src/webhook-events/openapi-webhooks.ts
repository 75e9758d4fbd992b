import { WEBHOOK_EVENT_CATALOG, WEBHOOK_EVENT_TYPES } from '@raffle/contracts';
import { AUTO_DISABLE_AFTER_MS, DELIVERY_TIMEOUT_MS, RETRY_SCHEDULE_MS } from '@raffle/webhooks';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** "5 s", "30 min", "2 h": the schedule as a reader wants it, computed from the one the dispatcher runs. */
function duration(ms: number): string {
  if (ms >= HOUR && ms % HOUR === 0) return `${ms / HOUR} h`;
  if (ms >= MINUTE && ms % MINUTE === 0) return `${ms / MINUTE} min`;
  return `${ms / SECOND} s`;
}

const retries = RETRY_SCHEDULE_MS.slice(1).map(duration).join(', ');

const ACKNOWLEDGED =
  `Acknowledged. Any other status, a redirect, or no answer within ${duration(DELIVERY_TIMEOUT_MS)} is retried ` +
  `${RETRY_SCHEDULE_MS.length - 1} times, after ${retries} (±10%), each attempt signed afresh with the same \`webhook-id\`. ` +
  `410 Gone disables the endpoint at once; ${AUTO_DISABLE_AFTER_MS / (24 * HOUR)} days of failures in a row disable it too.`;

const headerParameters = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: 'The event id (`evt_…`): the same for every retry of the event, so receivers deduplicate on it.',
    schema: { type: 'string' },
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'Unix seconds when this attempt was signed. Refuse it when it is far from your clock (5 minutes is usual).',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      'Standard Webhooks: space-separated `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{raw body}">`, keyed with the base64-decoded part of the endpoint\'s `whsec_` secret. Two signatures while a rotated-out secret is still valid; accept the request if any matches.',
    schema: { type: 'string' },
  },
  {
    name: 'traceparent',
    in: 'header',
    required: false,
    description:
      'W3C Trace Context of this delivery attempt, sent when the platform runs with tracing on: the trace of the request that caused the event. Not part of the signature.',
    schema: { type: 'string', pattern: '^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$' },
  },
];

const pascal = (type: string) => type.split(/[._]/).map((part) => part.charAt(0).toUpperCase() + part.slice(1)).join('');

/**
 * The management document's `webhooks` section (OpenAPI 3.1): one POST per event type, its body
 * the contracts' payload schema (registered as a component by the app), the Standard Webhooks
 * headers, and what the receiver's answer means.
 */
export function openApiWebhooks(): Record<string, unknown> {
  return Object.fromEntries(
    WEBHOOK_EVENT_TYPES.map((type) => {
      const entry = WEBHOOK_EVENT_CATALOG[type];
      const payloadId = String((entry.payload as { $id: string }).$id);
      return [
        type,
        {
          post: {
            operationId: `on${pascal(type)}Webhook`,
            tags: ['Webhooks'],
            summary: type,
            description: `${entry.description}\n\nDelivered to ${entry.audiences.join(' and ')} endpoints subscribed to \`${type}\`.`,
            parameters: headerParameters,
            requestBody: { required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${payloadId}` } } } },
            responses: { '2XX': { description: ACKNOWLEDGED } },
          },
        },
      ];
    }),
  );
}
