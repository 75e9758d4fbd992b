import type { ApiKeyKind, ApiKeyRecord, WorkspaceRole } from '@raffle/contracts';
import { and, desc, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client.js';
import { isoOrAbsent } from '../render/iso.js';
import { apiKeys } from '../schema/api-keys.js';
import { users } from '../schema/users.js';
import { workspaceMembers } from '../schema/workspaces.js';

export type ApiKeyRow = typeof apiKeys.$inferSelect;

/** Whose keys a management request acts on: a user's personal keys, or one workspace's keys. */
export type ApiKeyOwner = { kind: 'personal'; userId: string } | { kind: 'workspace'; workspaceId: string };

/** The API's key record; unset timestamps are absent fields (the spec types them without "or null"). */
export function toApiKeyRecord(row: ApiKeyRow): ApiKeyRecord {
  const record: ApiKeyRecord = {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    lastFour: row.lastFour,
    scopes: [...row.scopes],
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
  const expiresAt = isoOrAbsent(row.expiresAt);
  const revokedAt = isoOrAbsent(row.revokedAt);
  const lastUsedAt = isoOrAbsent(row.lastUsedAt);
  if (expiresAt) record.expiresAt = expiresAt;
  if (revokedAt) record.revokedAt = revokedAt;
  if (lastUsedAt) record.lastUsedAt = lastUsedAt;
  return record;
}

const ownedBy = (owner: ApiKeyOwner) =>
  owner.kind === 'personal'
    ? and(eq(apiKeys.kind, 'personal' satisfies ApiKeyKind), eq(apiKeys.userId, owner.userId))
    : and(eq(apiKeys.kind, 'workspace' satisfies ApiKeyKind), eq(apiKeys.workspaceId, owner.workspaceId));

const activeAt = (now: Date) => and(isNull(apiKeys.revokedAt), or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, now)));

/** The owner's keys, newest first (ids are time-sortable, so id order breaks createdAt ties). */
export async function listApiKeyRows(db: DbOrTx, owner: ApiKeyOwner): Promise<ApiKeyRow[]> {
  return db.select().from(apiKeys).where(ownedBy(owner)).orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
}

export async function countActiveApiKeys(db: DbOrTx, owner: ApiKeyOwner, now: Date): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(apiKeys)
    .where(and(ownedBy(owner), activeAt(now)));
  return row?.count ?? 0;
}

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

export async function userExists(db: DbOrTx, userId: string): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId));
  return row !== undefined;
}

export async function findWorkspaceRole(db: DbOrTx, workspaceId: string, userId: string): Promise<WorkspaceRole | null> {
  const [row] = await db
    .select({ role: workspaceMembers.role })
    .from(workspaceMembers)
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)));
  return (row?.role as WorkspaceRole | undefined) ?? null;
}
