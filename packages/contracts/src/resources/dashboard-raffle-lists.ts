import { Type } from '@sinclair/typebox';
import { ENTRY_STATUSES, WIN_STATUSES } from '../domain-values.js';
import { PageOf, type Pagination } from '../pagination.js';
import { DashboardPageQuerySchema } from './dashboard-fields.js';
import { RaffleListFilterFields } from './raffle-list-filters.js';
import { StringEnum } from '../primitives.js';
import { DashboardWinSchema, type DashboardWin } from './dashboard-win.js';
import { WorkspaceEntrySchema, type WorkspaceEntry } from './entry.js';
import { WorkspaceRaffleItemSchema, type WorkspaceRaffleItem } from './raffle.js';

/** The dashboard's raffle list carries the stored workspace list items; GET one raffle for the rest. */
export const DashboardRafflePageSchema = PageOf(Type.Ref(WorkspaceRaffleItemSchema), 'DashboardRafflePage');
export type DashboardRafflePage = { data: WorkspaceRaffleItem[]; pagination: Pagination };

/** The raffle list's query: a page, narrowed on the server by status, mechanic and a title/slug search. */
export const DashboardRaffleQuerySchema = Type.Object({ ...DashboardPageQuerySchema.properties, ...RaffleListFilterFields }, { additionalProperties: false });

export const DashboardEntryPageSchema = PageOf(Type.Ref(WorkspaceEntrySchema), 'DashboardEntryPage');
export type DashboardEntryPage = { data: WorkspaceEntry[]; pagination: Pagination };

export const DashboardWinPageSchema = PageOf(Type.Ref(DashboardWinSchema), 'DashboardWinPage');
export type DashboardWinPage = { data: DashboardWin[]; pagination: Pagination };

/** Entries and wins lists: up to 250 a page, 100 when `limit` is absent (the spec's entries limits). */
export const DASHBOARD_RAFFLE_ITEMS_PAGE_SIZE = { default: 100, max: 250 } as const;

/** `limit` and `cursor` of the dashboard's raffle item lists (entries, wins, allowlist leaves). */
export const DashboardItemsPageFields = {
  // Matched as text: management validates query strings without coercion (see DashboardPageQuerySchema).
  limit: Type.Optional(
    Type.String({
      pattern: '^(?:[1-9][0-9]?|1[0-9]{2}|2[0-4][0-9]|250)$',
      examples: ['100'],
      description: `Page size, 1 to ${DASHBOARD_RAFFLE_ITEMS_PAGE_SIZE.max}; ${DASHBOARD_RAFFLE_ITEMS_PAGE_SIZE.default} when absent.`,
    }),
  ),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 512, description: 'The opaque nextCursor of the previous page.' })),
};

export const DashboardEntryQuerySchema = Type.Object(
  { ...DashboardItemsPageFields, status: Type.Optional(StringEnum(ENTRY_STATUSES, 'Only entries in this status.')) },
  { additionalProperties: false },
);

export const DashboardWinQuerySchema = Type.Object(
  { ...DashboardItemsPageFields, status: Type.Optional(StringEnum(WIN_STATUSES, 'Only wins in this status.')) },
  { additionalProperties: false },
);
