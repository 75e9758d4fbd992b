import { and, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client.js';
import { ownedBy, type ApiKeyOwner } from '../queries/api-key-owners.js';
import type { ApiKeyRow } from '../render/api-key.js';
import { apiKeys } from '../schema/api-keys.js';

export type { ApiKeyOwner } from '../queries/api-key-owners.js';

/**
 * Serialises key creation per owner until the transaction ends, so the active-key cap holds
 * under concurrent requests (count-then-insert is otherwise a race).
 */
export async function lockApiKeyOwner(tx: DbOrTx, owner: ApiKeyOwner): Promise<void> {
  const lockKey = owner.kind === 'personal' ? `api-keys:user:${owner.userId}` : `api-keys:workspace:${owner.workspaceId}`;
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${lockKey}, 0))`);
}

/** One of the owner's keys, row-locked for the rest of the transaction; null when not theirs. */
export async function findApiKeyRowForUpdate(tx: DbOrTx, owner: ApiKeyOwner, keyId: string): Promise<ApiKeyRow | null> {
  const [row] = await tx
    .select()
    .from(apiKeys)
    .where(and(ownedBy(owner), eq(apiKeys.id, keyId)))
    .for('update');
  return row ?? null;
}

/** Revokes one of the owner's keys; a key already revoked keeps its first revokedAt. Null when not theirs. */
export async function revokeApiKeyRow(db: DbOrTx, owner: ApiKeyOwner, keyId: string, at: Date): Promise<ApiKeyRow | null> {
  const [revoked] = await db
    .update(apiKeys)
    .set({ revokedAt: at, updatedAt: at })
    .where(and(ownedBy(owner), eq(apiKeys.id, keyId), isNull(apiKeys.revokedAt)))
    .returning();
  if (revoked) return revoked;
  const [existing] = await db.select().from(apiKeys).where(and(ownedBy(owner), eq(apiKeys.id, keyId)));
  return existing ?? null;
}

export async function setApiKeyEnd(db: DbOrTx, keyId: string, end: { expiresAt?: Date; revokedAt?: Date }, at: Date): Promise<ApiKeyRow> {
  const [row] = await db
    .update(apiKeys)
    .set({ ...end, updatedAt: at })
    .where(eq(apiKeys.id, keyId))
    .returning();
  return row!;
}
