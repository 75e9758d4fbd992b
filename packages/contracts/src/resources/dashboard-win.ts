import { Type, type Static } from '@sinclair/typebox';
import { DateTime } from '../primitives.js';
import { WinnerSchema } from './win.js';

/**
 * A win as the raffle's team sees it: the workspace `Winner` fields plus which entry and raffle it
 * belongs to and every lifecycle time. Unlike the winners list, the dashboard lists wins in every
 * status, so `finalizedAt` is present only once the win is finalized.
 */
export const DashboardWinSchema = Type.Object(
  {
    ...WinnerSchema.properties,
    raffleId: Type.String(),
    entryId: Type.String(),
    selectedAt: DateTime(),
    finalizedAt: Type.Optional(DateTime()),
    disqualifiedAt: Type.Optional(DateTime()),
    replacedAt: Type.Optional(DateTime()),
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
