import {
  DASHBOARD_PAGE_SIZE,
  WEBHOOK_RECOVERY_WINDOW_DAYS,
  type RecoveredWebhookDeliveries,
  type WebhookDelivery,
  type WebhookDeliveryAttempt,
  type WebhookDeliveryStatus,
} from '@raffle/contracts';
import {
  isIdOf,
  isoOrAbsent,
  pageWebhookDeliveryAttempts,
  requeueFailedWebhookDeliveries,
  requeueWebhookDelivery,
  textOrAbsent,
  type Db,
  type WebhookAttemptLogRow,
  type WebhookDeliveryAttemptRow as AttemptRow,
  type WebhookDeliveryRow as DeliveryRow,
} from '@raffle/db';
import { DomainError } from '../errors.js';
import { cursorBinding } from '../pagination/binding.js';
import { isIdKey } from '../pagination/keys.js';
import { readPageRequest, toPage, type Page, type PageRequest } from '../pagination/page.js';
import type { WebhookEndpointRow } from './endpoint-rules.js';
import { findOwnedWebhookEndpoint, requireWebhookOwnerAccess, type WebhookEndpointScope } from './webhook-endpoints.js';

const DAY_MS = 24 * 60 * 60 * 1000;

const deliveryNotFound = () => new DomainError('NOT_FOUND', 'no such delivery of this webhook endpoint');

/** The dispatcher sends nothing to a disabled endpoint (and fails its pending deliveries): enable it first. */
function assertEnabled(endpoint: WebhookEndpointRow): void {
  if (!endpoint.enabled) throw new DomainError('WEBHOOK_ENDPOINT_DISABLED', 'the endpoint is disabled; enable it before sending deliveries again');
}

/** The attempt table keeps no outcome column: an attempt succeeded when it got a 2xx and no failure. */
const attemptStatus = (a: AttemptRow) =>
  a.failureKind === null && a.responseStatus !== null && a.responseStatus >= 200 && a.responseStatus < 300 ? 'succeeded' : 'failed';

function toDeliveryAttempt({ attempt: a, delivery: d, payload }: WebhookAttemptLogRow): WebhookDeliveryAttempt {
  const item: WebhookDeliveryAttempt = {
    id: a.id,
    deliveryId: a.deliveryId,
    eventId: d.eventId,
    eventType: d.eventType,
    attemptNumber: a.attemptNumber,
    status: attemptStatus(a),
    latencyMs: a.latencyMs,
    createdAt: a.createdAt.toISOString(),
    deliveryStatus: d.status as WebhookDeliveryStatus,
  };
  if (a.responseStatus !== null) item.responseStatus = a.responseStatus;
  const failureKind = textOrAbsent(a.failureKind);
  if (failureKind) item.failureKind = failureKind;
  // An empty body is still a body: "" is shown, only a missing one is absent.
  if (a.responseBody !== null) item.responseBody = a.responseBody;
  if (payload !== null) item.payload = payload;
  // Each attempt shows the next attempt it scheduled. The delivery's own time moves on with every
  // attempt, so it stands in only for the latest attempt of a pending delivery recorded before
  // attempts kept theirs (migration 0008).
  const latestPending = d.status === 'pending' && a.attemptNumber === d.attemptCount;
  const next = isoOrAbsent(a.nextAttemptAt) ?? (latestPending ? isoOrAbsent(d.nextAttemptAt) : undefined);
  if (next) item.nextAttemptAt = next;
  return item;
}

function toDelivery(d: DeliveryRow): WebhookDelivery {
  const delivery: WebhookDelivery = {
    id: d.id,
    eventId: d.eventId,
    eventType: d.eventType,
    status: d.status as WebhookDeliveryStatus,
    attemptCount: d.attemptCount,
  };
  const next = isoOrAbsent(d.nextAttemptAt);
  if (next) delivery.nextAttemptAt = next;
  return delivery;
}

/** The endpoint's attempt log, newest first, optionally of one delivery, each with its delivery's state. */
export async function listWebhookDeliveryAttempts(
  db: Db,
  args: WebhookEndpointScope & PageRequest & { endpointId: string; deliveryId?: string },
): Promise<Page<WebhookDeliveryAttempt>> {
  await requireWebhookOwnerAccess(db, args);
  const endpoint = await findOwnedWebhookEndpoint(db, args.owner, args.endpointId);
  const binding = cursorBinding('webhook-attempts', endpoint.id, args.deliveryId);
  const page = readPageRequest(args, { binding, rule: DASHBOARD_PAGE_SIZE, isKey: isIdKey('webhookAttempt') });
  const rows = await pageWebhookDeliveryAttempts(db, { endpointId: endpoint.id, deliveryId: args.deliveryId, before: page.after?.[0] ?? null, limit: page.limit });
  return toPage(rows, page, (r) => [r.attempt.id], toDeliveryAttempt);
}

/**
 * Sends a delivery again: pending and due now, whatever its state (the dispatcher polls pending
 * due deliveries). A pending one waiting for a later attempt is brought forward. The attempt
 * count is kept, so the attempt log numbers on. A disabled endpoint answers 409.
 */
export async function retryWebhookDelivery(
  db: Db,
  args: WebhookEndpointScope & { endpointId: string; deliveryId: string; now?: Date },
): Promise<WebhookDelivery> {
  const now = args.now ?? new Date();
  return db.transaction(async (tx) => {
    await requireWebhookOwnerAccess(tx, args);
    const endpoint = await findOwnedWebhookEndpoint(tx, args.owner, args.endpointId);
    if (!isIdOf('webhookDelivery', args.deliveryId)) throw deliveryNotFound();
    assertEnabled(endpoint);
    const updated = await requeueWebhookDelivery(tx, { endpointId: endpoint.id, deliveryId: args.deliveryId, at: now });
    if (!updated) throw deliveryNotFound();
    return toDelivery(updated);
  });
}

/**
 * Every failed delivery of the endpoint created at or after `since` becomes pending and due now
 * (after an outage on the receiving side, say). `since` is not in the future and at most 30 days
 * back; a disabled endpoint answers 409 (re-enable it, then recover).
 */
export async function recoverWebhookDeliveries(
  db: Db,
  args: WebhookEndpointScope & { endpointId: string; since: string; now?: Date },
): Promise<RecoveredWebhookDeliveries> {
  const now = args.now ?? new Date();
  const since = new Date(args.since);
  if (Number.isNaN(since.getTime())) throw new DomainError('VALIDATION_FAILED', 'since must be an ISO 8601 date-time');
  if (since.getTime() > now.getTime()) throw new DomainError('VALIDATION_FAILED', 'since must not be in the future');
  if (since.getTime() < now.getTime() - WEBHOOK_RECOVERY_WINDOW_DAYS * DAY_MS) {
    throw new DomainError('VALIDATION_FAILED', `since must be at most ${WEBHOOK_RECOVERY_WINDOW_DAYS} days back`);
  }
  return db.transaction(async (tx) => {
    await requireWebhookOwnerAccess(tx, args);
    const endpoint = await findOwnedWebhookEndpoint(tx, args.owner, args.endpointId);
    assertEnabled(endpoint);
    return { requeued: await requeueFailedWebhookDeliveries(tx, { endpointId: endpoint.id, since, at: now }) };
  });
}
