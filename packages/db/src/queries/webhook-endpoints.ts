import { and, count, desc, eq } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../client.js';
import { eventOutbox } from '../schema/outbox.js';
import { webhookDeliveries, webhookDeliveryAttempts, webhookEndpoints } from '../schema/webhooks.js';
import { beforeKey, keysetReadSize } from './keyset.js';

export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
export type WebhookDeliveryAttemptRow = typeof webhookDeliveryAttempts.$inferSelect;

/** Whose endpoint: one user's personal endpoints, or one workspace's. */
export type WebhookOwner = { kind: 'personal'; userId: string } | { kind: 'workspace'; workspaceId: string };

const ownedWebhookEndpoints = (owner: WebhookOwner) =>
  owner.kind === 'personal'
    ? and(eq(webhookEndpoints.ownerKind, 'personal'), eq(webhookEndpoints.userId, owner.userId))
    : and(eq(webhookEndpoints.ownerKind, 'workspace'), eq(webhookEndpoints.workspaceId, owner.workspaceId));

const ownedEndpoint = (owner: WebhookOwner, endpointId: string) => and(ownedWebhookEndpoints(owner), eq(webhookEndpoints.id, endpointId));

/** The owner's endpoint; null when it is missing or another owner's. */
export async function findWebhookEndpoint(db: DbOrTx, owner: WebhookOwner, endpointId: string): Promise<WebhookEndpointRow | null> {
  const [row] = await db.select().from(webhookEndpoints).where(ownedEndpoint(owner, endpointId));
  return row ?? null;
}

/** As findWebhookEndpoint, with the row locked until the transaction ends. */
export async function lockWebhookEndpoint(tx: Tx, owner: WebhookOwner, endpointId: string): Promise<WebhookEndpointRow | null> {
  const [row] = await tx.select().from(webhookEndpoints).where(ownedEndpoint(owner, endpointId)).for('update');
  return row ?? null;
}

export async function countWebhookEndpoints(db: DbOrTx, owner: WebhookOwner): Promise<number> {
  const [row] = await db.select({ n: count() }).from(webhookEndpoints).where(ownedWebhookEndpoints(owner));
  return row?.n ?? 0;
}

/** A page of the owner's endpoints, newest first. */
export async function pageWebhookEndpoints(
  db: DbOrTx,
  args: { owner: WebhookOwner; before: string | null; limit: number },
): Promise<WebhookEndpointRow[]> {
  return db
    .select()
    .from(webhookEndpoints)
    .where(and(ownedWebhookEndpoints(args.owner), beforeKey(webhookEndpoints.id, args.before)))
    .orderBy(desc(webhookEndpoints.id))
    .limit(keysetReadSize(args.limit));
}

export type WebhookAttemptLogRow = {
  attempt: WebhookDeliveryAttemptRow;
  delivery: Pick<WebhookDeliveryRow, 'eventId' | 'eventType' | 'status' | 'nextAttemptAt' | 'attemptCount'>;
  /** The body every attempt of the delivery sends (the event's outbox payload); null when the event is gone. */
  payload: string | null;
};

/**
 * A page of the endpoint's attempt log, newest first, optionally of one delivery, each with its
 * delivery's state and the payload it sent.
 */
export async function pageWebhookDeliveryAttempts(
  db: DbOrTx,
  args: { endpointId: string; deliveryId?: string; before: string | null; limit: number },
): Promise<WebhookAttemptLogRow[]> {
  return db
    .select({
      attempt: webhookDeliveryAttempts,
      delivery: {
        eventId: webhookDeliveries.eventId,
        eventType: webhookDeliveries.eventType,
        status: webhookDeliveries.status,
        nextAttemptAt: webhookDeliveries.nextAttemptAt,
        attemptCount: webhookDeliveries.attemptCount,
      },
      payload: eventOutbox.payload,
    })
    .from(webhookDeliveryAttempts)
    .innerJoin(webhookDeliveries, eq(webhookDeliveries.id, webhookDeliveryAttempts.deliveryId))
    .leftJoin(eventOutbox, eq(eventOutbox.id, webhookDeliveries.eventId))
    .where(
      and(
        eq(webhookDeliveryAttempts.endpointId, args.endpointId),
        eq(webhookDeliveries.endpointId, args.endpointId),
        args.deliveryId === undefined ? undefined : eq(webhookDeliveryAttempts.deliveryId, args.deliveryId),
        beforeKey(webhookDeliveryAttempts.id, args.before),
      ),
    )
    .orderBy(desc(webhookDeliveryAttempts.id))
    .limit(keysetReadSize(args.limit));
}
