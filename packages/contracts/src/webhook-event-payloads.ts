import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { DateTime } from './primitives.js';
import { SanitizedEntrySchema, WorkspaceEntrySchema } from './resources/entry.js';
import { LinkedWalletSchema } from './resources/linked-wallet.js';
import { ProjectSchema } from './resources/project.js';
import { WorkspaceRaffleItemSchema } from './resources/raffle.js';
import { AllowlistPublishedSchema } from './resources/allowlist.js';
import { WinnerSchema, WinSchema } from './resources/win.js';

/**
 * The body of each webhook POST, one schema per event type. The outbox writes the envelope
 * (`type`, `timestamp`, `data`) and the dispatcher sends it byte for byte; the event id is not
 * in the body but in the `webhook-id` header (Standard Webhooks). `data` is the resource exactly
 * as the data plane renders it for the receiving endpoint's owner.
 */
const eventPayload = <const T extends string, D extends TSchema>(type: T, $id: string, data: D) =>
  Type.Object(
    {
      type: Type.Literal(type),
      timestamp: DateTime('When the state change committed (the same for every endpoint and every retry).'),
      data,
    },
    { $id, additionalProperties: false },
  );

export const WebhookTestDataSchema = Type.Object(
  {
    endpointId: Type.String({ description: 'The endpoint the test was sent to.' }),
    message: Type.String(),
  },
  { $id: 'WebhookTestData', additionalProperties: false },
);
export type WebhookTestData = Static<typeof WebhookTestDataSchema>;

const raffleData = () => Type.Ref(WorkspaceRaffleItemSchema);
/** The one type both audiences receive with different views: the owner's entry or the workspace's. */
const entryData = () =>
  Type.Union([Type.Ref(SanitizedEntrySchema), Type.Ref(WorkspaceEntrySchema)], {
    description: 'A personal endpoint receives the entry as its owner sees it (SanitizedEntry); a workspace endpoint, the workspace entry (WorkspaceEntry).',
  });
const winData = () => Type.Ref(WinSchema);
const winnerData = () => Type.Ref(WinnerSchema);
const projectData = () => Type.Ref(ProjectSchema);

export const RafflePublishedEventSchema = eventPayload('raffle.published', 'RafflePublishedEvent', raffleData());
export const RaffleOpenedEventSchema = eventPayload('raffle.opened', 'RaffleOpenedEvent', raffleData());
export const RaffleClosedEventSchema = eventPayload('raffle.closed', 'RaffleClosedEvent', raffleData());
export const RaffleDrawnEventSchema = eventPayload('raffle.drawn', 'RaffleDrawnEvent', raffleData());
export const RaffleFinalizedEventSchema = eventPayload('raffle.finalized', 'RaffleFinalizedEvent', raffleData());
export const RaffleCancelledEventSchema = eventPayload('raffle.cancelled', 'RaffleCancelledEvent', raffleData());
export const RaffleAllowlistPublishedEventSchema = eventPayload('raffle.allowlist_published', 'RaffleAllowlistPublishedEvent', Type.Ref(AllowlistPublishedSchema));
export const EntryCreatedEventSchema = eventPayload('entry.created', 'EntryCreatedEvent', entryData());
export const EntryUpdatedEventSchema = eventPayload('entry.updated', 'EntryUpdatedEvent', entryData());
export const EntryWithdrawnEventSchema = eventPayload('entry.withdrawn', 'EntryWithdrawnEvent', entryData());
export const WinSelectedEventSchema = eventPayload('win.selected', 'WinSelectedEvent', winData());
export const WinFinalizedEventSchema = eventPayload('win.finalized', 'WinFinalizedEvent', winData());
export const WinDisqualifiedEventSchema = eventPayload('win.disqualified', 'WinDisqualifiedEvent', winData());
export const WinDeliveryUpdatedEventSchema = eventPayload('win.delivery_updated', 'WinDeliveryUpdatedEvent', winData());
export const WinnerSelectedEventSchema = eventPayload('winner.selected', 'WinnerSelectedEvent', winnerData());
export const WinnerFinalizedEventSchema = eventPayload('winner.finalized', 'WinnerFinalizedEvent', winnerData());
export const WinnerDisqualifiedEventSchema = eventPayload('winner.disqualified', 'WinnerDisqualifiedEvent', winnerData());
export const WinnerReplacedEventSchema = eventPayload('winner.replaced', 'WinnerReplacedEvent', winnerData());
export const WinnerDeliveryUpdatedEventSchema = eventPayload('winner.delivery_updated', 'WinnerDeliveryUpdatedEvent', winnerData());
export const ProjectCreatedEventSchema = eventPayload('project.created', 'ProjectCreatedEvent', projectData());
export const ProjectUpdatedEventSchema = eventPayload('project.updated', 'ProjectUpdatedEvent', projectData());
/** The user's own wallet, as the wallet routes show it to them: only personal endpoints of that user receive it. */
const walletData = () => Type.Ref(LinkedWalletSchema);
export const WalletLinkedEventSchema = eventPayload('wallet.linked', 'WalletLinkedEvent', walletData());
export const WalletUnlinkedEventSchema = eventPayload('wallet.unlinked', 'WalletUnlinkedEvent', walletData());
export const WebhookTestEventPayloadSchema = eventPayload('webhook.test', 'WebhookTestEventPayload', Type.Ref(WebhookTestDataSchema));
