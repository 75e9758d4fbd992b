import type { DuplicateFlags } from '@raffle/contracts';
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../client.js';
import { entries } from '../schema/entries.js';

export async function findEntryDuplicateFlags(tx: DbOrTx, entryId: string): Promise<DuplicateFlags | null> {
  const [row] = await tx.select({ flags: entries.duplicateFlags }).from(entries).where(eq(entries.id, entryId));
  return row?.flags ?? null;
}
