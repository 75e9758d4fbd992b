import { and, eq, gte, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../client.js';
import type { WebhookDeliveryRow, WebhookEndpointRow, WebhookOwner } from '../queries/webhook-endpoints.js';
import { webhookDeliveries, webhookEndpoints } from '../schema/webhooks.js';

/** Serialises endpoint creations per owner until the transaction ends, so an endpoint cap holds under concurrent requests. */
export async function lockWebhookEndpointOwner(tx: Tx, owner: WebhookOwner): Promise<void> {
  const key = owner.kind === 'personal' ? `webhook-endpoints:user:${owner.userId}` : `webhook-endpoints:workspace:${owner.workspaceId}`;
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`);
}

export type NewWebhookEndpoint = typeof webhookEndpoints.$inferInsert;

export async function insertWebhookEndpoint(tx: DbOrTx, endpoint: NewWebhookEndpoint): Promise<WebhookEndpointRow> {
  const [row] = await tx.insert(webhookEndpoints).values(endpoint).returning();
  return row!;
}

export async function updateWebhookEndpointRow(
  tx: DbOrTx,
  endpointId: string,
  changes: Partial<Omit<WebhookEndpointRow, 'id'>>,
): Promise<WebhookEndpointRow> {
  const [row] = await tx.update(webhookEndpoints).set(changes).where(eq(webhookEndpoints.id, endpointId)).returning();
  return row!;
}

/**
 * Deletes the endpoint with its deliveries (and, by cascade, their attempts); false when it was
 * already gone. The deliveries go first, then the endpoint: the dispatcher's outcome recorder
 * locks a delivery and then its endpoint, and a cascade from the endpoint row would take them the
 * other way round and deadlock with it.
 */
export async function deleteWebhookEndpointWithDeliveries(tx: DbOrTx, endpointId: string): Promise<boolean> {
  await tx.delete(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId));
  const deleted = await tx.delete(webhookEndpoints).where(eq(webhookEndpoints.id, endpointId)).returning({ id: webhookEndpoints.id });
  return deleted.length > 0;
}

/** Makes one of the endpoint's deliveries pending and due at `at`, keeping its attempt count; null when it is not the endpoint's. */
export async function requeueWebhookDelivery(
  tx: DbOrTx,
  args: { endpointId: string; deliveryId: string; at: Date },
): Promise<WebhookDeliveryRow | null> {
  const [row] = await tx
    .update(webhookDeliveries)
    .set({ status: 'pending', nextAttemptAt: args.at, updatedAt: args.at })
    .where(and(eq(webhookDeliveries.id, args.deliveryId), eq(webhookDeliveries.endpointId, args.endpointId)))
    .returning();
  return row ?? null;
}

/** Makes every failed delivery of the endpoint created at or after `since` pending and due at `at`; how many. */
export async function requeueFailedWebhookDeliveries(tx: DbOrTx, args: { endpointId: string; since: Date; at: Date }): Promise<number> {
  const requeued = await tx
    .update(webhookDeliveries)
    .set({ status: 'pending', nextAttemptAt: args.at, updatedAt: args.at })
    .where(
      and(eq(webhookDeliveries.endpointId, args.endpointId), eq(webhookDeliveries.status, 'failed'), gte(webhookDeliveries.createdAt, args.since)),
    )
    .returning({ id: webhookDeliveries.id });
  return requeued.length;
}
