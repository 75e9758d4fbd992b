import { Type, type Static } from '@sinclair/typebox';
import { PageOf, type Pagination } from '../pagination.js';
import { DateTime, Nullable, StringEnum } from '../primitives.js';
import { DashboardPageQuerySchema } from './dashboard-fields.js';

/** `pending` until an attempt succeeds; `failed` once retries are exhausted or the endpoint is disabled. */
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

export const WEBHOOK_ATTEMPT_STATUSES = ['succeeded', 'failed'] as const;
export type WebhookAttemptStatus = (typeof WEBHOOK_ATTEMPT_STATUSES)[number];

export const WEBHOOK_URL_MAX_LENGTH = 2048;
export const WEBHOOK_DESCRIPTION_MAX_LENGTH = 500;

const webhookEndpointFields = {
  id: Type.String(),
  url: Type.String(),
  description: Type.Optional(Type.String()),
  eventTypes: Type.Array(Type.String(), { description: 'The event types delivered; `webhook.test` is delivered on demand whatever is listed.' }),
  enabled: Type.Boolean(),
  disabledReason: Type.Optional(Type.String({ description: 'Why the endpoint was disabled, when it is.' })),
  disabledAt: Type.Optional(DateTime()),
  failingSince: Type.Optional(DateTime('Start of the current run of failed deliveries; five days of it disable the endpoint.')),
  secretRotatedAt: Type.Optional(DateTime('When the secret was last rotated; absent when it never was.')),
  createdAt: DateTime(),
  updatedAt: DateTime(),
};

/** A webhook endpoint as management shows it: never its signing secret. */
export const WebhookEndpointSchema = Type.Object(webhookEndpointFields, { $id: 'WebhookEndpoint', additionalProperties: false });
export type WebhookEndpoint = Static<typeof WebhookEndpointSchema>;

/** The create (and rotate) response: the only time the signing secret is ever returned. */
export const CreatedWebhookEndpointSchema = Type.Object(
  {
    ...webhookEndpointFields,
    secret: Type.String({ description: 'The `whsec_` signing secret (Standard Webhooks). Never returned again.' }),
  },
  { $id: 'CreatedWebhookEndpoint', additionalProperties: false },
);
export type CreatedWebhookEndpoint = Static<typeof CreatedWebhookEndpointSchema>;

export const WebhookEndpointPageSchema = PageOf(Type.Ref(WebhookEndpointSchema), 'WebhookEndpointPage');
export type WebhookEndpointPage = { data: WebhookEndpoint[]; pagination: Pagination };

const EndpointUrl = Type.String({
  minLength: 1,
  maxLength: WEBHOOK_URL_MAX_LENGTH,
  description: 'Absolute https URL (http only where the service allows it) of a public host; no user info.',
});
const Description = Type.String({ maxLength: WEBHOOK_DESCRIPTION_MAX_LENGTH });
const EventTypes = Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
  minItems: 1,
  maxItems: 64,
  uniqueItems: true,
  description: "Event types of the owner's kind (personal or workspace); see GET /api/developer/capabilities.",
});

export const CreateWebhookEndpointBodySchema = Type.Object(
  {
    url: EndpointUrl,
    description: Type.Optional(Description),
    eventTypes: EventTypes,
    enabled: Type.Optional(Type.Boolean({ default: true })),
  },
  { $id: 'CreateWebhookEndpointBody', additionalProperties: false },
);
export type CreateWebhookEndpointBody = Static<typeof CreateWebhookEndpointBodySchema>;

export const UpdateWebhookEndpointBodySchema = Type.Object(
  {
    url: Type.Optional(EndpointUrl),
    description: Type.Optional(Nullable(Type.String({ maxLength: WEBHOOK_DESCRIPTION_MAX_LENGTH, description: 'null removes it.' }))),
    eventTypes: Type.Optional(EventTypes),
    enabled: Type.Optional(Type.Boolean({ description: 'true re-enables a disabled endpoint and forgets its failures.' })),
  },
  { $id: 'UpdateWebhookEndpointBody', additionalProperties: false, minProperties: 1 },
);
export type UpdateWebhookEndpointBody = Static<typeof UpdateWebhookEndpointBodySchema>;

export const WebhookTestEventSchema = Type.Object(
  { eventId: Type.String({ description: 'The `webhook-id` the test delivery carries.' }) },
  { $id: 'WebhookTestEvent', additionalProperties: false },
);
export type WebhookTestEvent = Static<typeof WebhookTestEventSchema>;

/** One attempt of the log, with the state of the delivery it belongs to. */
export const WebhookDeliveryAttemptSchema = Type.Object(
  {
    id: Type.String({ description: 'Attempt id.' }),
    deliveryId: Type.String(),
    eventId: Type.String(),
    eventType: Type.String(),
    attemptNumber: Type.Integer({ minimum: 1 }),
    status: StringEnum(WEBHOOK_ATTEMPT_STATUSES),
    responseStatus: Type.Optional(Type.Integer()),
    failureKind: Type.Optional(Type.String({ description: 'timeout | network | redirect | blocked_address | http_status' })),
    latencyMs: Type.Integer({ minimum: 0 }),
    responseBody: Type.Optional(Type.String({ description: 'At most 1 KB of the response body, as stored.' })),
    payload: Type.Optional(
      Type.String({
        description:
          "The request body the attempt sent: the event's `{ type, timestamp, data }` envelope as JSON text, byte for byte as signed (every attempt of a delivery sends the same). Absent when the event is no longer kept.",
      }),
    ),
    createdAt: DateTime(),
    deliveryStatus: StringEnum(WEBHOOK_DELIVERY_STATUSES),
    nextAttemptAt: Type.Optional(
      DateTime('When this attempt scheduled the next one; absent when none followed it (it succeeded, or the delivery was given up).'),
    ),
  },
  { $id: 'WebhookDeliveryAttempt', additionalProperties: false },
);
export type WebhookDeliveryAttempt = Static<typeof WebhookDeliveryAttemptSchema>;

export const WebhookDeliveryAttemptPageSchema = PageOf(Type.Ref(WebhookDeliveryAttemptSchema), 'WebhookDeliveryAttemptPage');
export type WebhookDeliveryAttemptPage = { data: WebhookDeliveryAttempt[]; pagination: Pagination };

export const WebhookDeliverySchema = Type.Object(
  {
    id: Type.String(),
    eventId: Type.String(),
    eventType: Type.String(),
    status: StringEnum(WEBHOOK_DELIVERY_STATUSES),
    attemptCount: Type.Integer({ minimum: 0 }),
    nextAttemptAt: Type.Optional(DateTime()),
  },
  { $id: 'WebhookDelivery', additionalProperties: false },
);
export type WebhookDelivery = Static<typeof WebhookDeliverySchema>;

/** How far back a recovery may reach. */
export const WEBHOOK_RECOVERY_WINDOW_DAYS = 30;

export const RecoverWebhookDeliveriesBodySchema = Type.Object(
  {
    since: DateTime(`Failed deliveries created at or after this time are sent again; not in the future, at most ${WEBHOOK_RECOVERY_WINDOW_DAYS} days back.`),
  },
  { $id: 'RecoverWebhookDeliveriesBody', additionalProperties: false },
);
export type RecoverWebhookDeliveriesBody = Static<typeof RecoverWebhookDeliveriesBodySchema>;

export const RecoveredWebhookDeliveriesSchema = Type.Object(
  { requeued: Type.Integer({ minimum: 0, description: 'How many failed deliveries are pending again.' }) },
  { $id: 'RecoveredWebhookDeliveries', additionalProperties: false },
);
export type RecoveredWebhookDeliveries = Static<typeof RecoveredWebhookDeliveriesSchema>;

/** The attempt log's query: a dashboard page, optionally of one delivery. */
export const WebhookDeliveryAttemptQuerySchema = Type.Object(
  {
    ...DashboardPageQuerySchema.properties,
    deliveryId: Type.Optional(
      Type.String({ minLength: 1, maxLength: 128, pattern: '^[^\\u0000-\\u001f]+$', description: 'Only the attempts of this delivery.' }),
    ),
  },
  { additionalProperties: false },
);
