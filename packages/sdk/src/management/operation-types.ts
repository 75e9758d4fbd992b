import type { components, operations } from '../generated/management.js';

/**
 * Every request and response type of the management client is read from the generated OpenAPI
 * types (packages/sdk/src/generated/management.ts) through these helpers, so a change to a
 * route's schema reaches the SDK's signatures on the next `pnpm openapi:export`.
 */

export type ManagementOperationId = keyof operations;
export type ManagementSchemas = components['schemas'];

type JsonOf<T> = T extends { content: { 'application/json': infer Json } } ? Json : never;

/** The JSON body an operation takes. */
export type RequestBody<Id extends ManagementOperationId> = JsonOf<NonNullable<operations[Id]['requestBody']>>;

/** The JSON an operation answers with on success (200, 201 or 202); `void` for a 204. */
export type ResponseBody<Id extends ManagementOperationId> = operations[Id]['responses'] extends infer R
  ? R extends { 200: infer Ok }
    ? JsonOf<Ok>
    : R extends { 201: infer Created }
      ? JsonOf<Created>
      : R extends { 202: infer Accepted }
        ? JsonOf<Accepted>
        : R extends { 204: unknown }
          ? void
          : never
  : never;

/** The item type of a list operation's `{ data, pagination }` page. */
export type ListItem<Id extends ManagementOperationId> = ResponseBody<Id> extends { data: Array<infer Item> } ? Item : never;

/**
 * A list operation's filters. The cursor is the list's business (it is added page by page), and
 * `limit` is a number here: the document types it as a digit string because it is a query
 * parameter with a pattern.
 */
export type ListParams<Id extends ManagementOperationId> = Omit<NonNullable<operations[Id]['parameters']['query']>, 'cursor' | 'limit'> & {
  /** Page size; each list documents its range and default. */
  limit?: number;
};
