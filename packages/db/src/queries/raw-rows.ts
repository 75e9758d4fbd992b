import { getTableColumns, type InferSelectModel, type Table } from 'drizzle-orm';

/**
 * A row that postgres.js read with `select *` (snake_case keys, values as the pool's types parse
 * them: timestamps stay strings, jsonb arrives parsed), as the record drizzle would have returned
 * for the table: each value goes through its column's own driver mapping.
 */
export function rowOfTable<T extends Table>(table: T, raw: Record<string, unknown>): InferSelectModel<T> {
  const record: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    const value = raw[column.name];
    record[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return record as InferSelectModel<T>;
}
