import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { Nullable } from './primitives.js';

export const PaginationSchema = Type.Object(
  {
    nextCursor: Nullable(Type.String({ description: 'Opaque. Null when hasMore is false.' })),
    hasMore: Type.Boolean(),
  },
  { $id: 'Pagination', additionalProperties: false },
);
export type Pagination = Static<typeof PaginationSchema>;

/** `{ data, pagination }`, the envelope of every paginated list. */
export const PageOf = <T extends TSchema>(item: T, id: string) =>
  Type.Object(
    { data: Type.Array(item), pagination: Type.Ref(PaginationSchema) },
    { $id: id, additionalProperties: false },
  );

/** Page-size rules per list, from the spec's Limits table. */
export const PAGE_SIZES = {
  personalRaffles: { default: 50, max: 100 },
  personalEntries: { default: 50, max: 100 },
  personalWins: { default: 50, max: 100 },
  workspaceRaffles: { default: 50, max: 100 },
  workspaceRaffleEntries: { default: 100, max: 250 },
  workspaceProjects: { default: 50, max: 100 },
  allowlistLeaves: { default: 100, max: 250 },
} as const;
export type PageSizeRule = { readonly default: number; readonly max: number };

/**
 * The query of a paginated list. A `limit` that fails this schema (fractional, zero, negative,
 * above the maximum, not a number) answers 400 INVALID_LIMIT, as the spec requires.
 */
export const PageQuerySchema = (rule: PageSizeRule) =>
  Type.Object({
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: rule.max, default: rule.default, description: `Page size, 1 to ${rule.max}.` }),
    ),
    cursor: Type.Optional(
      Type.String({ minLength: 1, maxLength: 512, description: 'The opaque nextCursor of the previous page.' }),
    ),
  });
