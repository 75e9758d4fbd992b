import { randomBytes } from 'node:crypto';
import type { WebhookEventType } from '@raffle/contracts';
import { appendEvents, insertUser, insertWorkspace, newId, schema, type Db, type DbOrTx, type EventAudience } from '@raffle/db';
import { generateWebhookSecret } from '@raffle/webhooks';
import { registerSecret } from './log-scan.js';

const suffix = () => randomBytes(5).toString('hex');

/** Writes events as a domain transition would and returns their ids. */
export function writeEvents(
  tx: DbOrTx,
  events: { type: WebhookEventType; audience: EventAudience; data?: unknown; endpointId?: string }[],
): Promise<string[]> {
  const at = new Date();
  return appendEvents(
    tx,
    events.map((e) => ({ type: e.type, audience: e.audience, data: e.data ?? { id: `raf_${suffix()}` }, at, ...(e.endpointId ? { endpointId: e.endpointId } : {}) })),
  );
}

/** A user and a workspace to own endpoints, and helpers to register endpoints and write events. */
export async function createOwners(db: Db) {
  const user = await insertUser(db, { handle: `hook-${suffix()}` });
  const workspace = await insertWorkspace(db, { slug: `hooks-${suffix()}`, name: 'Hooks' });
  return {
    user,
    workspace,
    async endpoint(args: { url: string; owner?: 'personal' | 'workspace'; eventTypes?: string[]; enabled?: boolean }) {
      const owner = args.owner ?? 'workspace';
      const secret = registerSecret(generateWebhookSecret());
      const now = new Date();
      const [row] = await db
        .insert(schema.webhookEndpoints)
        .values({
          id: newId('webhookEndpoint', now.getTime()),
          ownerKind: owner,
          userId: owner === 'personal' ? user.id : null,
          workspaceId: owner === 'workspace' ? workspace.id : null,
          url: args.url,
          eventTypes: args.eventTypes ?? ['raffle.published'],
          enabled: args.enabled ?? true,
          secret,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      return { ...row!, secret };
    },
    /** Commits one event per call, as a domain transition would; returns its id. */
    async workspaceEvent(type: WebhookEventType = 'raffle.published', data: unknown = { id: `raf_${suffix()}` }): Promise<string> {
      const [id] = await db.transaction((tx) => writeEvents(tx, [{ type, audience: { workspaceId: workspace.id }, data }]));
      return id!;
    },
    /** Commits `count` workspace events in one transaction (a burst, like a draw); returns their ids. */
    async workspaceEvents(count: number, type: WebhookEventType = 'raffle.published'): Promise<string[]> {
      return db.transaction((tx) => writeEvents(tx, Array.from({ length: count }, () => ({ type, audience: { workspaceId: workspace.id } }))));
    },
    async personalEvent(type: WebhookEventType = 'entry.created', data: unknown = { id: `ent_${suffix()}` }): Promise<string> {
      const [id] = await db.transaction((tx) => writeEvents(tx, [{ type, audience: { userId: user.id }, data }]));
      return id!;
    },
    /** `webhook.test` for one endpoint, as the management API's "send test event" writes it. */
    async testEvent(endpointId: string): Promise<string> {
      const [id] = await db.transaction((tx) =>
        writeEvents(tx, [{ type: 'webhook.test', audience: { workspaceId: workspace.id }, endpointId, data: { message: 'test' } }]),
      );
      return id!;
    },
  };
}
