import type { ApiKeyRecord } from '@raffle/contracts';
import type { apiKeys } from '../schema/api-keys.js';
import { isoOrAbsent } from './iso.js';

export type ApiKeyRow = typeof apiKeys.$inferSelect;

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
