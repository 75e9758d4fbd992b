import { Type, type Static } from '@sinclair/typebox';
import { DELIVERY_STATUSES, RAFFLE_MECHANICS, ALLOCATION_TYPES, WIN_SOURCES, WIN_STATUSES } from '../domain-values.js';
import { DateTime, StringEnum } from '../primitives.js';

/** The `raffle` value inside a personal win: enough to show the win without another call. */
export const WinRaffleSchema = Type.Object(
  {
    id: Type.String(),
    slug: Type.String(),
    title: Type.String(),
    mechanic: StringEnum(RAFFLE_MECHANICS),
    allocationType: StringEnum(ALLOCATION_TYPES),
    chain: Type.Optional(Type.String()),
    workspaceId: Type.String(),
  },
  { $id: 'WinRaffle', additionalProperties: false },
);

export const WinSchema = Type.Object(
  {
    id: Type.String(),
    raffleId: Type.String(),
    source: StringEnum(WIN_SOURCES),
    status: StringEnum(WIN_STATUSES),
    position: Type.Integer({ minimum: 1 }),
    walletSnapshot: Type.Optional(Type.String()),
    deliveryStatus: StringEnum(DELIVERY_STATUSES),
    deliveryNote: Type.Optional(Type.String()),
    selectedAt: DateTime(),
    finalizedAt: Type.Optional(DateTime()),
    disqualifiedAt: Type.Optional(DateTime()),
    replacedAt: Type.Optional(DateTime()),
    deliveredAt: Type.Optional(DateTime()),
    raffle: Type.Ref(WinRaffleSchema),
  },
  { $id: 'Win', additionalProperties: false },
);
export type Win = Static<typeof WinSchema>;

/** Who the winner was when the win was finalized; kept even if the profile changes later. */
export const IdentitySnapshotSchema = Type.Object(
  {
    handle: Type.String(),
    displayName: Type.Optional(Type.String()),
    wallets: Type.Array(
      Type.Object({ chain: Type.String(), address: Type.String() }, { additionalProperties: false }),
    ),
  },
  { $id: 'IdentitySnapshot', additionalProperties: false },
);

export const WinnerSchema = Type.Object(
  {
    id: Type.String(),
    userId: Type.String(),
    source: StringEnum(WIN_SOURCES),
    status: StringEnum(WIN_STATUSES),
    position: Type.Integer({ minimum: 1 }),
    walletSnapshot: Type.Optional(Type.String()),
    identitySnapshot: Type.Ref(IdentitySnapshotSchema),
    deliveryStatus: StringEnum(DELIVERY_STATUSES),
    deliveryNote: Type.Optional(Type.String()),
    finalizedAt: DateTime(),
    deliveredAt: Type.Optional(DateTime()),
  },
  { $id: 'Winner', additionalProperties: false },
);
export type Winner = Static<typeof WinnerSchema>;
