import type { ApiKeyKind } from '@raffle/contracts';
import { and, eq, gt, isNull, or } from 'drizzle-orm';
import { apiKeys } from '../schema/api-keys.js';

// What the reads and writes of the management API's keys share (not exported from the package:
// ApiKeyOwner is, through writes/api-key-lifecycle.ts).

/** Whose keys a management request acts on: a user's personal keys, or one workspace's keys. */
export type ApiKeyOwner = { kind: 'personal'; userId: string } | { kind: 'workspace'; workspaceId: string };

export const ownedBy = (owner: ApiKeyOwner) =>
  owner.kind === 'personal'
    ? and(eq(apiKeys.kind, 'personal' satisfies ApiKeyKind), eq(apiKeys.userId, owner.userId))
    : and(eq(apiKeys.kind, 'workspace' satisfies ApiKeyKind), eq(apiKeys.workspaceId, owner.workspaceId));

export const activeAt = (now: Date) => and(isNull(apiKeys.revokedAt), or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, now)));
