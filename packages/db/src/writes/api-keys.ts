import { apiKeyDisplayParts, generateApiKey, type ApiKeyKind } from '@raffle/contracts';
import type { DbOrTx } from '../client.js';
import { hashApiKey } from '../api-key-hash.js';
import { newId } from '../ids.js';
import { apiKeys } from '../schema/api-keys.js';

export type NewApiKey = {
  kind: ApiKeyKind;
  userId: string;
  workspaceId?: string | null;
  name: string;
  scopes: string[];
  expiresAt?: Date | null;
  revokedAt?: Date | null;
  rolledFromId?: string | null;
  createdAt?: Date;
  /** Use this plaintext instead of a fresh random key (deterministic demo keys only). */
  plaintext?: string;
  id?: string;
};

/** Creates a key and returns its plaintext exactly once; only its hash is stored. */
export async function insertApiKey(tx: DbOrTx, input: NewApiKey) {
  const apiKey = input.plaintext ?? generateApiKey(input.kind);
  const now = input.createdAt ?? new Date();
  const [record] = await tx
    .insert(apiKeys)
    .values({
      id: input.id ?? newId('apiKey', now.getTime()),
      kind: input.kind,
      userId: input.userId,
      workspaceId: input.kind === 'workspace' ? (input.workspaceId ?? null) : null,
      name: input.name,
      keyHash: hashApiKey(apiKey),
      ...apiKeyDisplayParts(apiKey),
      scopes: input.scopes,
      expiresAt: input.expiresAt ?? null,
      revokedAt: input.revokedAt ?? null,
      rolledFromId: input.rolledFromId ?? null,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return { record: record!, apiKey };
}
