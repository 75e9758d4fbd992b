import { Type } from '@sinclair/typebox';
import { RAFFLE_MECHANICS, RAFFLE_STATUSES, type RaffleMechanic, type RaffleStatus } from '../domain-values.js';
import { StringEnum } from '../primitives.js';

/** The longest search text: a title is at most 200 characters, a slug far less. */
export const RAFFLE_SEARCH_MAX_LENGTH = 100;

/**
 * Filters of a workspace's raffle list (the data plane's and the dashboard's), applied on the
 * server before the page is cut, so a filtered list pages through every match. They are part of
 * the cursor: a cursor continues only the list, filters included, that issued it.
 */
export const RaffleListFilterFields = {
  status: Type.Optional(StringEnum(RAFFLE_STATUSES, 'Only raffles in this status.')),
  mechanic: Type.Optional(StringEnum(RAFFLE_MECHANICS, 'Only raffles of this mechanic.')),
  q: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: RAFFLE_SEARCH_MAX_LENGTH,
      examples: ['summer'],
      description: 'Only raffles whose title or slug contains this text, ignoring case (`%` and `_` match themselves).',
    }),
  ),
};

export type RaffleListFilters = { status?: RaffleStatus; mechanic?: RaffleMechanic; q?: string };

