import { Type, type Static } from '@sinclair/typebox';
import { DELIVERY_STATUSES, WIN_SOURCES, WIN_STATUSES } from '../domain-values.js';
import { DateTime, StringEnum } from '../primitives.js';
import { IdentitySnapshotSchema } from './win.js';

/**
 * A win as the raffle's team sees it: the workspace `Winner` fields plus which entry and raffle it
 * belongs to and every lifecycle time. Unlike the winners list, the dashboard lists wins in every
 * status, so `finalizedAt` is present only once the win is finalized.
 */
export const DashboardWinSchema = Type.Object(
  {
    id: Type.String(),
    raffleId: Type.String(),
    entryId: Type.String(),
    userId: Type.String(),
    source: StringEnum(WIN_SOURCES),
    status: StringEnum(WIN_STATUSES),
    position: Type.Integer({ minimum: 1 }),
    walletSnapshot: Type.Optional(Type.String()),
    identitySnapshot: Type.Ref(IdentitySnapshotSchema),
    deliveryStatus: StringEnum(DELIVERY_STATUSES),
    deliveryNote: Type.Optional(Type.String()),
    selectedAt: DateTime(),
    finalizedAt: Type.Optional(DateTime()),
    disqualifiedAt: Type.Optional(DateTime()),
    replacedAt: Type.Optional(DateTime()),
    deliveredAt: Type.Optional(DateTime()),
  },
  { $id: 'DashboardWin', additionalProperties: false },
);
export type DashboardWin = Static<typeof DashboardWinSchema>;

/** A reroll's answer: the disqualified win, now `replaced`, and the new win at the same position. */
export const RerolledWinSchema = Type.Object(
  { replaced: Type.Ref(DashboardWinSchema), replacement: Type.Ref(DashboardWinSchema) },
  { $id: 'RerolledWin', additionalProperties: false },
);
export type RerolledWin = Static<typeof RerolledWinSchema>;
