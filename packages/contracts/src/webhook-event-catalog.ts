import type { TSchema } from '@sinclair/typebox';
import { PERSONAL_WEBHOOK_EVENTS, WORKSPACE_WEBHOOK_EVENTS, type WebhookEventType } from './events.js';
import * as payloads from './webhook-event-payloads.js';

/** The two kinds of webhook endpoint owner, and so of event audience. */
export const WEBHOOK_AUDIENCES = ['personal', 'workspace'] as const;
export type WebhookAudience = (typeof WEBHOOK_AUDIENCES)[number];

export type WebhookEventCatalogEntry = {
  description: string;
  /** The endpoint kinds that can subscribe to it (derived from the capabilities lists, never restated). */
  audiences: readonly WebhookAudience[];
  /** The whole POST body: `{ type, timestamp, data }`. */
  payload: TSchema;
};

const described: { [T in WebhookEventType]: { description: string; payload: TSchema } } = {
  'raffle.published': {
    description: 'A draft raffle was published (visible from now on). `data` is the workspace raffle list item.',
    payload: payloads.RafflePublishedEventSchema,
  },
  'raffle.opened': {
    description: 'A raffle opened for entries: at publish when it has no start time, else when its start time came. `data` is the workspace raffle list item.',
    payload: payloads.RaffleOpenedEventSchema,
  },
  'raffle.closed': {
    description:
      'A raffle stopped taking entries: closed by the team, at its end time, or when a first-come raffle filled its last spot. `data` is the workspace raffle list item; its `beaconRound`, fixed by this close, names the public beacon round the draw will mix in.',
    payload: payloads.RaffleClosedEventSchema,
  },
  'raffle.drawn': {
    description:
      'Winners were drawn; `winner.selected` / `win.selected` follow for each of them. `data` is the workspace raffle list item. A weighted raffle closed with a `beaconRound` was drawn only once that round of the public randomness beacon was published, with it mixed into the seed (`es-hmac-sha256-drand-v1`); its draw proof shows the round.',
    payload: payloads.RaffleDrawnEventSchema,
  },
  'raffle.finalized': {
    description: 'The results became final; every selected win is finalized with it. `data` is the workspace raffle list item.',
    payload: payloads.RaffleFinalizedEventSchema,
  },
  'raffle.cancelled': {
    description: 'A raffle was cancelled; wins it had handed out are disqualified. `data` is the workspace raffle list item.',
    payload: payloads.RaffleCancelledEventSchema,
  },
  'raffle.allowlist_published': {
    description:
      "A version of a finalized raffle's allowlist was published: built at finalize (once the wallet deadline, if any, passed), and again each time its finalized winners change. `data` carries the version, its Merkle root and leaf count: set that root in the mint contract; winners fetch their proofs from `GET /api/v1/raffles/{slug}/allowlist/proof`.",
    payload: payloads.RaffleAllowlistPublishedEventSchema,
  },
  'entry.created': {
    description:
      'A user entered a raffle. Its status is `valid`, or `pending` when the raffle has on-chain requirements and the chain did not answer in time: the entry is evaluated once it does, and an `entry.updated` says `valid` or `invalid`. A personal endpoint (the entrant) receives the sanitized entry; a workspace endpoint, the workspace entry.',
    payload: payloads.EntryCreatedEventSchema,
  },
  'entry.updated': {
    description:
      'An entry changed: a `pending` entry evaluated once the chain answered (now `valid`, or `invalid` with its statusReason; a first-come entry takes its spot then), disqualified by the team, or no longer meeting its requirements when they are re-checked at the draw. A workspace endpoint also hears of new duplicate flags (which the entrant does not see). Personal: the sanitized entry; workspace: the workspace entry.',
    payload: payloads.EntryUpdatedEventSchema,
  },
  'entry.withdrawn': {
    description: 'The entrant withdrew the entry. Personal: the sanitized entry; workspace: the workspace entry.',
    payload: payloads.EntryWithdrawnEventSchema,
  },
  'win.selected': {
    description: 'You won: your entry was selected (by a draw, or on arrival in a first-come raffle). `data` is the win as its holder sees it.',
    payload: payloads.WinSelectedEventSchema,
  },
  'win.finalized': {
    description: 'Your win became final. `data` is the win.',
    payload: payloads.WinFinalizedEventSchema,
  },
  'win.disqualified': {
    description: 'Your win was disqualified (by the team, with its entry, or because the raffle was cancelled). `data` is the win.',
    payload: payloads.WinDisqualifiedEventSchema,
  },
  'win.delivery_updated': {
    description: "The delivery of your win's prize changed status or note. `data` is the win.",
    payload: payloads.WinDeliveryUpdatedEventSchema,
  },
  'winner.selected': {
    description: 'An entry of the workspace\'s raffle won (draw or first-come arrival). `data` is the winner.',
    payload: payloads.WinnerSelectedEventSchema,
  },
  'winner.finalized': {
    description: 'A winner became final. `data` is the winner.',
    payload: payloads.WinnerFinalizedEventSchema,
  },
  'winner.disqualified': {
    description: 'A winner was disqualified (by the team, with its entry, or because the raffle was cancelled). `data` is the winner.',
    payload: payloads.WinnerDisqualifiedEventSchema,
  },
  'winner.replaced': {
    description: "A disqualified winner's position was filled, by a reroll or, while an FCFS raffle is open, by the next entrant: `data` is the replaced winner; `winner.selected` follows for the one who took the position.",
    payload: payloads.WinnerReplacedEventSchema,
  },
  'winner.delivery_updated': {
    description: "The delivery of a winner's prize changed status or note. `data` is the winner.",
    payload: payloads.WinnerDeliveryUpdatedEventSchema,
  },
  'project.created': {
    description: 'A project was created in the workspace. `data` is the project.',
    payload: payloads.ProjectCreatedEventSchema,
  },
  'project.updated': {
    description: 'A project of the workspace changed. `data` is the project.',
    payload: payloads.ProjectUpdatedEventSchema,
  },
  'wallet.linked': {
    description:
      "You linked a wallet by its signature (Sign-In with Ethereum), or proved one again. `data` is the wallet as your wallet list shows it; only your own personal endpoints receive it.",
    payload: payloads.WalletLinkedEventSchema,
  },
  'wallet.unlinked': {
    description: 'You unlinked a wallet; it no longer counts for token requirements. `data` is the wallet as it was; only your own personal endpoints receive it.',
    payload: payloads.WalletUnlinkedEventSchema,
  },
  'webhook.test': {
    description: 'Sent on demand ("send test event") to that one endpoint, whatever it subscribes to. `data` names the endpoint.',
    payload: payloads.WebhookTestEventPayloadSchema,
  },
};

const audiencesOf = (type: WebhookEventType): WebhookAudience[] =>
  WEBHOOK_AUDIENCES.filter((audience) =>
    (audience === 'personal' ? (PERSONAL_WEBHOOK_EVENTS as readonly string[]) : (WORKSPACE_WEBHOOK_EVENTS as readonly string[])).includes(type),
  );

/** Every event type, in capabilities order (workspace list, then the personal-only ones). */
export const WEBHOOK_EVENT_TYPES: readonly WebhookEventType[] = [...new Set<WebhookEventType>([...WORKSPACE_WEBHOOK_EVENTS, ...PERSONAL_WEBHOOK_EVENTS])];

/** Each event type's description, audiences and payload schema: what management documents and lists. */
export const WEBHOOK_EVENT_CATALOG: { readonly [T in WebhookEventType]: WebhookEventCatalogEntry } = Object.fromEntries(
  WEBHOOK_EVENT_TYPES.map((type) => [type, { ...described[type], audiences: audiencesOf(type) }]),
) as unknown as { [T in WebhookEventType]: WebhookEventCatalogEntry };

/**
 * The payload schemas (and what only they reference), in dependency order, for a service to
 * `addSchema` beside SHARED_SCHEMAS. Only management documents webhooks, so they are not shared.
 */
export const WEBHOOK_EVENT_SCHEMAS = [payloads.WebhookTestDataSchema, ...WEBHOOK_EVENT_TYPES.map((type) => described[type].payload)] as const;
