import { randomBytes } from 'node:crypto';
import { addWorkspaceMember, insertUser, insertWorkspace, type Database } from '@raffle/db';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { expectSchema } from './contract.js';
import { tokenFor } from './jwt.js';
import { registerSecret } from './log-scan.js';

/** Endpoint URLs on loopback are accepted only by an app configured with this allow-list. */
export const LOCAL_SINK_CONFIG = { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_ALLOW_HTTP: 'true' };
export const LOCAL_URL = 'http://127.0.0.1:9/hooks/raffle';

export const PERSONAL_BASE = '/api/developer/personal/webhook-endpoints';
export const workspaceBase = (workspaceId: string) => `/api/developer/workspaces/${workspaceId}/webhook-endpoints`;

export const as = (userId: string) => ({ authorization: `Bearer ${tokenFor(userId)}` });

export type EndpointRecord = {
  id: string;
  url: string;
  description?: string;
  eventTypes: string[];
  enabled: boolean;
  disabledReason?: string;
  disabledAt?: string;
  failingSince?: string;
  secretRotatedAt?: string;
  createdAt: string;
  updatedAt: string;
};
export type CreatedEndpoint = EndpointRecord & { secret: string };
export type Page<T> = { data: T[]; pagination: { nextCursor: string | null; hasMore: boolean } };

/** Where one owner's endpoints live and who may manage them. */
export type OwnerCase = {
  kind: 'personal' | 'workspace';
  base: string;
  userId: string;
  /** An event type of this owner's kind, and one only the other kind has. */
  ownEvent: string;
  otherKindEvent: string;
};

/** A fresh user with nothing registered, and a fresh workspace that user owns. */
export async function freshOwners(database: Database): Promise<{ personal: OwnerCase; workspace: OwnerCase }> {
  const tag = randomBytes(4).toString('hex');
  const user = await insertUser(database.db, { handle: `hooks-${tag}` });
  const workspace = await insertWorkspace(database.db, { slug: `hooks-${tag}`, name: `Hooks ${tag}` });
  await addWorkspaceMember(database.db, { workspaceId: workspace.id, userId: user.id, role: 'owner' });
  return {
    personal: { kind: 'personal', base: PERSONAL_BASE, userId: user.id, ownEvent: 'win.selected', otherKindEvent: 'raffle.published' },
    workspace: { kind: 'workspace', base: workspaceBase(workspace.id), userId: user.id, ownEvent: 'raffle.published', otherKindEvent: 'win.selected' },
  };
}

/** Registers an endpoint, checks the 201 against its schema and registers the secret with the log scan. */
export async function createEndpoint(app: FastifyInstance, owner: OwnerCase, body: Record<string, unknown> = {}): Promise<CreatedEndpoint> {
  const res = await app.inject({
    method: 'POST',
    url: owner.base,
    headers: as(owner.userId),
    payload: { url: LOCAL_URL, eventTypes: [owner.ownEvent], ...body },
  });
  expect(res.statusCode, res.body).toBe(201);
  const created = res.json() as CreatedEndpoint;
  registerSecret(created.secret);
  expectSchema('CreatedWebhookEndpoint', created);
  return created;
}
