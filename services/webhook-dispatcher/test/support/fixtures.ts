import { randomBytes } from 'node:crypto';
import { appendEvents, insertUser, insertWorkspace, newId, schema, type Db } from '@raffle/db';
import { generateWebhookSecret } from '@raffle/webhooks';

const suffix = () => randomBytes(5).toString('hex');

/** A user and a workspace to own endpoints, and helpers to register endpoints and write events. */
export async function createOwners(db: Db) {
  const user = await insertUser(db, { handle: `hook-${suffix()}` });
  const workspace = await insertWorkspace(db, { slug: `hooks-${suffix()}`, name: 'Hooks' });
  return {
    user,
    workspace,
    async endpoint(args: { url: string; owner?: 'personal' | 'workspace'; eventTypes?: string[]; enabled?: boolean }) {
      const owner = args.owner ?? 'workspace';
      const secret = generateWebhookSecret();
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
    /** Commits one event per call, as a domain transition would. */
    async workspaceEvent(type: 'raffle.published' | 'raffle.opened' = 'raffle.published', data: unknown = { id: `raf_${suffix()}` }) {
      await db.transaction((tx) => appendEvents(tx, [{ type, audience: { workspaceId: workspace.id }, data, at: new Date() }]));
    },
  };
}
