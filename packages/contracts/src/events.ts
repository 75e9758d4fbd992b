import { Type, type Static } from '@sinclair/typebox';
import { DateTime } from './primitives.js';

export const PERSONAL_WEBHOOK_EVENTS = [
  'entry.created',
  'entry.updated',
  'entry.withdrawn',
  'win.selected',
  'win.finalized',
  'win.disqualified',
  'win.delivery_updated',
  'wallet.linked',
  'wallet.unlinked',
  'webhook.test',
] as const;

export const WORKSPACE_WEBHOOK_EVENTS = [
  'raffle.published',
  'raffle.opened',
  'raffle.closed',
  'raffle.drawn',
  'raffle.finalized',
  'raffle.cancelled',
  'raffle.allowlist_published',
  'entry.created',
  'entry.updated',
  'entry.withdrawn',
  'winner.selected',
  'winner.finalized',
  'winner.disqualified',
  'winner.replaced',
  'winner.delivery_updated',
  'project.created',
  'project.updated',
  'webhook.test',
] as const;

export type PersonalWebhookEvent = (typeof PERSONAL_WEBHOOK_EVENTS)[number];
export type WorkspaceWebhookEvent = (typeof WORKSPACE_WEBHOOK_EVENTS)[number];
export type WebhookEventType = PersonalWebhookEvent | WorkspaceWebhookEvent;

/** What a webhook POST carries: `data` is the resource exactly as the data plane renders it. */
export const EventEnvelopeSchema = Type.Object(
  {
    type: Type.String({ description: 'One of the capabilities event types.' }),
    timestamp: DateTime('When the state change committed.'),
    data: Type.Unknown({ description: 'The resource as the data plane shows it.' }),
  },
  { $id: 'EventEnvelope', additionalProperties: false },
);
export type EventEnvelope = Static<typeof EventEnvelopeSchema>;
