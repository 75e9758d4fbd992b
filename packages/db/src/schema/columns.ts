import { customType, timestamp } from 'drizzle-orm/pg-core';

/**
 * Ids are prefixed, time-sortable strings. They use the "C" collation so that Postgres orders
 * them byte-wise, exactly as JavaScript compares them: keyset cursors and the draw's canonical
 * order then agree whatever the database's default locale is.
 */
export const idColumn = customType<{ data: string; driverData: string }>({
  dataType: () => 'text COLLATE "C"',
});

export const timestampColumn = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const createdAt = () => timestampColumn('created_at').notNull().defaultNow();
export const updatedAt = () => timestampColumn('updated_at').notNull().defaultNow();
