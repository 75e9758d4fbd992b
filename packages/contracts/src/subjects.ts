/**
 * NATS subjects the services share. Management publishes `{ keyId }` here when a key is
 * revoked or its expiry changes; every data-plane instance drops that key from its cache.
 */
export const API_KEY_REVOKED_SUBJECT = 'raffle.api-keys.revoked';
export type ApiKeyRevokedMessage = { keyId: string };

/** The JetStream stream the outbox relay publishes every committed event to (infra/nats). */
export const RAFFLE_EVENTS_STREAM = 'RAFFLE_EVENTS';
/** The durable pull consumer every webhook-dispatcher replica shares. */
export const DISPATCHER_CONSUMER = 'webhook-dispatcher';
export const RAFFLE_EVENTS_SUBJECT_PREFIX = 'raffle.events';
/** One subject per event type (`raffle.events.entry.created`); the stream takes `raffle.events.>`. */
export const raffleEventSubject = (type: string) => `${RAFFLE_EVENTS_SUBJECT_PREFIX}.${type}`;

/**
 * What the relay publishes for one outbox row, with `Nats-Msg-Id` = `id` (JetStream drops a
 * re-published row inside its duplicate window; deliveries are unique per endpoint and event
 * beyond it). `payload` is the `{ type, timestamp, data }` envelope exactly as it is delivered.
 */
export type RelayedEvent = {
  id: string;
  type: string;
  userId: string | null;
  workspaceId: string | null;
  /** Set when the event is for one endpoint only (`webhook.test`). */
  endpointId: string | null;
  payload: string;
  /** The W3C `traceparent` of the request that wrote the event (tracing on); deliveries continue its trace. */
  traceContext?: string | null;
};

/** Postgres NOTIFY channel: outbox writers signal it once their transaction commits (packages/db outbox-wake.ts), so the relay wakes without waiting for its poll. */
export const OUTBOX_NOTIFY_CHANNEL = 'raffle_outbox';
