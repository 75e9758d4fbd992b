import type { webhooks } from '../generated/management.js';

/**
 * The events a webhook endpoint receives, typed from the management OpenAPI document's
 * `webhooks` section (generated; never restated by hand): one POST body per event type.
 */
export type WebhookEventType = keyof webhooks & string;

type PayloadOf<T extends WebhookEventType> = webhooks[T] extends { post: { requestBody: { content: { 'application/json': infer Body } } } } ? Body : never;

/** The event of one type: `{ type, timestamp, data }` with `data` the resource it concerns. */
export type WebhookEventOf<T extends WebhookEventType> = PayloadOf<T>;

/** Any event, discriminated by `type`: `switch (event.type)` narrows `data`. */
export type WebhookEvent = { [T in WebhookEventType]: WebhookEventOf<T> }[WebhookEventType];

/** The `data` of one event type. */
export type WebhookEventData<T extends WebhookEventType> = WebhookEventOf<T> extends { data: infer Data } ? Data : never;

/**
 * The same types as values, so a body of an unknown type can be refused at run time. The
 * object's keys must be exactly the generated ones: a type added to or dropped from the
 * document fails the SDK's typecheck until this list follows.
 */
const KNOWN: { readonly [T in WebhookEventType]: true } = {
  'raffle.published': true,
  'raffle.opened': true,
  'raffle.closed': true,
  'raffle.drawn': true,
  'raffle.finalized': true,
  'raffle.cancelled': true,
  'raffle.allowlist_published': true,
  'entry.created': true,
  'entry.updated': true,
  'entry.withdrawn': true,
  'winner.selected': true,
  'winner.finalized': true,
  'winner.disqualified': true,
  'winner.replaced': true,
  'winner.delivery_updated': true,
  'project.created': true,
  'project.updated': true,
  'webhook.test': true,
  'win.selected': true,
  'win.finalized': true,
  'win.disqualified': true,
  'win.delivery_updated': true,
  'wallet.linked': true,
  'wallet.unlinked': true,
};

export const WEBHOOK_EVENT_TYPES = Object.freeze(Object.keys(KNOWN)) as readonly WebhookEventType[];

export const isWebhookEventType = (value: unknown): value is WebhookEventType => typeof value === 'string' && Object.hasOwn(KNOWN, value);
