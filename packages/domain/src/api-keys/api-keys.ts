import type { ApiKeyRecord, CreateApiKeyBody, CreatedApiKey } from '@raffle/contracts';
import {
  countActiveApiKeys,
  findApiKeyRowForUpdate,
  insertApiKey,
  listApiKeyRows,
  lockApiKeyOwner,
  revokeApiKeyRow,
  setApiKeyEnd,
  toApiKeyRecord,
  type Db,
} from '@raffle/db';
import { DomainError } from '../errors.js';
import { apiKeyCreationProblems } from './creation-rules.js';
import { requireApiKeyManager, type ApiKeyScope } from './key-managers.js';

const keyNotFound = () => new DomainError('API_KEY_NOT_FOUND', 'no such API key');

/** A new key for the owner, recording the acting user as its creator; at most `maxActiveKeys` active at once. */
export async function createApiKey(db: Db, args: ApiKeyScope & { body: CreateApiKeyBody; maxActiveKeys: number; now?: Date }): Promise<CreatedApiKey> {
  const now = args.now ?? new Date();
  const problems = apiKeyCreationProblems(args.owner.kind, args.body, now);
  if (problems.length > 0) throw new DomainError('VALIDATION_FAILED', problems.join('; '));
  return db.transaction(async (tx) => {
    const actingUserId = await requireApiKeyManager(tx, args);
    await lockApiKeyOwner(tx, args.owner);
    const active = await countActiveApiKeys(tx, args.owner, now);
    if (active >= args.maxActiveKeys) {
      throw new DomainError('API_KEY_LIMIT', `at most ${args.maxActiveKeys} active keys are allowed; revoke one first`);
    }
    const { record, apiKey } = await insertApiKey(tx, {
      kind: args.owner.kind,
      userId: actingUserId,
      workspaceId: args.owner.kind === 'workspace' ? args.owner.workspaceId : null,
      name: args.body.name,
      scopes: [...args.body.scopes],
      expiresAt: args.body.expiresAt ? new Date(args.body.expiresAt) : null,
      createdAt: now,
    });
    return { ...toApiKeyRecord(record), apiKey };
  });
}

/** The owner's keys, newest first (never the plaintext). */
export async function listApiKeys(db: Db, args: ApiKeyScope): Promise<ApiKeyRecord[]> {
  await requireApiKeyManager(db, args);
  return (await listApiKeyRows(db, args.owner)).map(toApiKeyRecord);
}

/** Revoking is idempotent: a key revoked before keeps its first revokedAt. */
export async function revokeApiKey(db: Db, args: ApiKeyScope & { keyId: string; now?: Date }): Promise<ApiKeyRecord> {
  return db.transaction(async (tx) => {
    await requireApiKeyManager(tx, args);
    const row = await revokeApiKeyRow(tx, args.owner, args.keyId, args.now ?? new Date());
    if (!row) throw keyNotFound();
    return toApiKeyRecord(row);
  });
}

/**
 * A new key with the old one's name, scopes and expiry; the old key then ends after
 * `expireOldInSeconds` (0 revokes it at once), never later than it would have anyway. A roll
 * that keeps the old key working adds an active key, so it meets the same cap as a create
 * (409 API_KEY_LIMIT); with 0 the count is unchanged and the cap does not apply.
 */
export async function rollApiKey(
  db: Db,
  args: ApiKeyScope & { keyId: string; expireOldInSeconds: number; maxActiveKeys: number; now?: Date },
): Promise<CreatedApiKey> {
  const now = args.now ?? new Date();
  return db.transaction(async (tx) => {
    const actingUserId = await requireApiKeyManager(tx, args);
    // Taken before the row lock, in the order createApiKey takes it, so rolls and creates of
    // one owner serialise without deadlocking and the count below stays true until commit.
    await lockApiKeyOwner(tx, args.owner);
    const old = await findApiKeyRowForUpdate(tx, args.owner, args.keyId);
    if (!old) throw keyNotFound();
    if (old.revokedAt && old.revokedAt <= now) throw new DomainError('API_KEY_CANNOT_ROLL', 'a revoked key cannot be rolled');
    if (old.expiresAt && old.expiresAt <= now) throw new DomainError('API_KEY_CANNOT_ROLL', 'an expired key cannot be rolled');
    if (args.expireOldInSeconds > 0 && (await countActiveApiKeys(tx, args.owner, now)) >= args.maxActiveKeys) {
      throw new DomainError(
        'API_KEY_LIMIT',
        `at most ${args.maxActiveKeys} active keys are allowed, and a roll that keeps the old key working adds one; revoke a key first, or roll with expireOldInSeconds 0`,
      );
    }
    const { record, apiKey } = await insertApiKey(tx, {
      kind: args.owner.kind,
      userId: actingUserId,
      workspaceId: args.owner.kind === 'workspace' ? args.owner.workspaceId : null,
      name: old.name,
      scopes: [...old.scopes],
      expiresAt: old.expiresAt,
      rolledFromId: old.id,
      createdAt: now,
    });
    if (args.expireOldInSeconds === 0) {
      await setApiKeyEnd(tx, old.id, { revokedAt: now }, now);
    } else {
      const end = new Date(now.getTime() + args.expireOldInSeconds * 1000);
      if (!old.expiresAt || end < old.expiresAt) await setApiKeyEnd(tx, old.id, { expiresAt: end }, now);
    }
    return { ...toApiKeyRecord(record), apiKey };
  });
}
