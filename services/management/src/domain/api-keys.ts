import { scopesFor, PERSONAL_API_SCOPES, WORKSPACE_API_SCOPES, type CreateApiKeyBody, type CreatedApiKey, type ApiKeyRecord } from '@raffle/contracts';
import {
  countActiveApiKeys,
  findApiKeyRowForUpdate,
  insertApiKey,
  listApiKeyRows,
  lockApiKeyOwner,
  revokeApiKeyRow,
  setApiKeyEnd,
  toApiKeyRecord,
  type ApiKeyOwner,
  type Db,
} from '@raffle/db';
import { managementError } from '../errors.js';

/** Who the keys belong to and who is acting (the creator of a workspace key is recorded). */
export type KeyHolder = { owner: ApiKeyOwner; actingUserId: string };

const ALL_SCOPES = new Set<string>([...PERSONAL_API_SCOPES, ...WORKSPACE_API_SCOPES]);

/** Scope and expiry rules the body schema cannot express; every problem is reported at once. */
export function creationProblems(kind: ApiKeyOwner['kind'], body: CreateApiKeyBody, now: Date): string[] {
  const problems: string[] = [];
  if (body.name.trim().length === 0) problems.push('name must not be blank');
  const allowed = new Set<string>(scopesFor(kind));
  for (const scope of body.scopes) {
    if (allowed.has(scope)) continue;
    problems.push(
      ALL_SCOPES.has(scope)
        ? `scope ${JSON.stringify(scope)} is not available on ${kind} keys`
        : `scope ${JSON.stringify(scope)} is unknown; see GET /api/developer/capabilities`,
    );
  }
  if (new Set(body.scopes).size !== body.scopes.length) problems.push('scopes must not repeat');
  if (body.expiresAt !== undefined) {
    const at = Date.parse(body.expiresAt);
    if (Number.isNaN(at)) problems.push('expiresAt must be an ISO 8601 date-time');
    else if (at <= now.getTime()) problems.push('expiresAt must be in the future');
  }
  return problems;
}

export async function createApiKey(
  db: Db,
  args: KeyHolder & { body: CreateApiKeyBody; maxActiveKeys: number; now?: Date },
): Promise<CreatedApiKey> {
  const now = args.now ?? new Date();
  const problems = creationProblems(args.owner.kind, args.body, now);
  if (problems.length > 0) throw managementError('VALIDATION_FAILED', problems.join('; '));
  return db.transaction(async (tx) => {
    await lockApiKeyOwner(tx, args.owner);
    const active = await countActiveApiKeys(tx, args.owner, now);
    if (active >= args.maxActiveKeys) {
      throw managementError('API_KEY_LIMIT', `at most ${args.maxActiveKeys} active keys are allowed; revoke one first`);
    }
    const { record, apiKey } = await insertApiKey(tx, {
      kind: args.owner.kind,
      userId: args.actingUserId,
      workspaceId: args.owner.kind === 'workspace' ? args.owner.workspaceId : null,
      name: args.body.name,
      scopes: [...args.body.scopes],
      expiresAt: args.body.expiresAt ? new Date(args.body.expiresAt) : null,
      createdAt: now,
    });
    return { ...toApiKeyRecord(record), apiKey };
  });
}

export async function listApiKeys(db: Db, args: { owner: ApiKeyOwner }): Promise<ApiKeyRecord[]> {
  return (await listApiKeyRows(db, args.owner)).map(toApiKeyRecord);
}

/** Revoking is idempotent: a key revoked before keeps its first revokedAt. */
export async function revokeApiKey(db: Db, args: { owner: ApiKeyOwner; keyId: string; now?: Date }): Promise<ApiKeyRecord> {
  const row = await revokeApiKeyRow(db, args.owner, args.keyId, args.now ?? new Date());
  if (!row) throw managementError('API_KEY_NOT_FOUND', 'no such API key');
  return toApiKeyRecord(row);
}

/**
 * A new key with the old one's name, scopes and expiry; the old key then ends after
 * `expireOldInSeconds` (0 revokes it at once), never later than it would have anyway. The
 * active-key cap is not applied: rolling replaces a key, and with 0 the count is unchanged.
 */
export async function rollApiKey(
  db: Db,
  args: KeyHolder & { keyId: string; expireOldInSeconds: number; now?: Date },
): Promise<CreatedApiKey> {
  const now = args.now ?? new Date();
  return db.transaction(async (tx) => {
    const old = await findApiKeyRowForUpdate(tx, args.owner, args.keyId);
    if (!old) throw managementError('API_KEY_NOT_FOUND', 'no such API key');
    if (old.revokedAt && old.revokedAt <= now) throw managementError('API_KEY_CANNOT_ROLL', 'a revoked key cannot be rolled');
    if (old.expiresAt && old.expiresAt <= now) throw managementError('API_KEY_CANNOT_ROLL', 'an expired key cannot be rolled');
    const { record, apiKey } = await insertApiKey(tx, {
      kind: args.owner.kind,
      userId: args.actingUserId,
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
