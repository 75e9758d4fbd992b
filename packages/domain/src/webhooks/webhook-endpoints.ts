import {
  DASHBOARD_PAGE_SIZE,
  type CreatedWebhookEndpoint,
  type CreateWebhookEndpointBody,
  type UpdateWebhookEndpointBody,
  type WebhookEndpoint,
  type WebhookTestEvent,
} from '@raffle/contracts';
import {
  appendEvents,
  countWebhookEndpoints,
  deleteWebhookEndpointWithDeliveries,
  findWebhookEndpoint,
  insertWebhookEndpoint,
  isIdOf,
  lockWebhookEndpoint,
  lockWebhookEndpointOwner,
  newId,
  pageWebhookEndpoints,
  updateWebhookEndpointRow,
  type Db,
  type DbOrTx,
  type Tx,
} from '@raffle/db';
import { checkEndpointUrl, generateWebhookSecret, type AddressPolicy } from '@raffle/webhooks';
import { DomainError } from '../errors.js';
import { cursorBinding } from '../pagination/binding.js';
import { isIdKey } from '../pagination/keys.js';
import { readPageRequest, toPage, type Page, type PageRequest } from '../pagination/page.js';
import { requireWorkspaceAccess, type Principal } from '../principal.js';
import {
  eventTypeProblems,
  MANUALLY_DISABLED_REASON,
  MAX_WEBHOOK_ENDPOINTS_PER_OWNER,
  PREVIOUS_SECRET_VALIDITY_MS,
  toWebhookEndpoint,
  WEBHOOK_TEST_MESSAGE,
  type WebhookEndpointRow,
  type WebhookOwner,
} from './endpoint-rules.js';

/** The endpoints' owner and who acts on them: for a workspace, an owner or admin of it; for personal ones, their user. */
export type WebhookEndpointScope = { owner: WebhookOwner; actor: Principal };

/** How endpoint URLs are judged: the service's address policy, and a resolver tests may replace. */
export type EndpointUrlRules = { addressPolicy: AddressPolicy; resolveHost?: (hostname: string) => Promise<string[]> };

export const webhookEndpointNotFound = () => new DomainError('NOT_FOUND', 'no such webhook endpoint');

/**
 * A workspace's endpoints are managed by its owners and admins; personal ones belong to their
 * user, and only that user acts on them. The system may act on either.
 */
export async function requireWebhookOwnerAccess(db: DbOrTx, scope: WebhookEndpointScope): Promise<void> {
  const { owner, actor } = scope;
  if (owner.kind === 'workspace') {
    await requireWorkspaceAccess(db, actor, owner.workspaceId, 'manage');
  } else if (actor.kind === 'user' && actor.userId !== owner.userId) {
    throw new DomainError('FORBIDDEN', 'personal webhook endpoints are managed by their user only');
  }
}

/** The owner's endpoint, or 404 (a foreign endpoint answers exactly like a missing one). */
export async function findOwnedWebhookEndpoint(db: DbOrTx, owner: WebhookOwner, endpointId: string): Promise<WebhookEndpointRow> {
  const row = isIdOf('webhookEndpoint', endpointId) ? await findWebhookEndpoint(db, owner, endpointId) : null;
  if (!row) throw webhookEndpointNotFound();
  return row;
}

/** As findOwnedWebhookEndpoint, with the row locked for the rest of the transaction. */
async function lockOwnedWebhookEndpoint(tx: Tx, owner: WebhookOwner, endpointId: string): Promise<WebhookEndpointRow> {
  const row = isIdOf('webhookEndpoint', endpointId) ? await lockWebhookEndpoint(tx, owner, endpointId) : null;
  if (!row) throw webhookEndpointNotFound();
  return row;
}

/**
 * Every problem with the given URL and event types, reported at once; the URL comes back as it
 * will be stored: parsed and normalised (so the stored URL is the one that was checked).
 */
async function checkedFields(
  kind: WebhookOwner['kind'],
  fields: { url?: string; eventTypes?: readonly string[] },
  rules: EndpointUrlRules,
): Promise<{ url?: string }> {
  const problems = fields.eventTypes === undefined ? [] : eventTypeProblems(kind, fields.eventTypes);
  let url: string | undefined;
  if (fields.url !== undefined) {
    const verdict = await checkEndpointUrl(fields.url, rules.addressPolicy, rules.resolveHost);
    if (verdict.ok) url = verdict.url.href;
    else problems.unshift(`url is refused: ${verdict.reason}`);
  }
  if (problems.length > 0) throw new DomainError('VALIDATION_FAILED', problems.join('; '));
  return url === undefined ? {} : { url };
}

const ownerColumns = (owner: WebhookOwner) =>
  owner.kind === 'personal'
    ? { ownerKind: 'personal', userId: owner.userId, workspaceId: null }
    : // The creator is not recorded: deleting that user must not take the workspace's endpoints along.
      { ownerKind: 'workspace', userId: null, workspaceId: owner.workspaceId };

/** A new endpoint with a fresh signing secret, returned only here (and on rotation). */
export async function createWebhookEndpoint(
  db: Db,
  args: WebhookEndpointScope & EndpointUrlRules & { body: CreateWebhookEndpointBody; maxEndpoints?: number; now?: Date },
): Promise<CreatedWebhookEndpoint> {
  const now = args.now ?? new Date();
  const max = args.maxEndpoints ?? MAX_WEBHOOK_ENDPOINTS_PER_OWNER;
  const { url } = await checkedFields(args.owner.kind, args.body, args);
  const enabled = args.body.enabled ?? true;
  return db.transaction(async (tx) => {
    await requireWebhookOwnerAccess(tx, args);
    // Serialises creations per owner, so two concurrent ones cannot both pass the endpoint cap.
    await lockWebhookEndpointOwner(tx, args.owner);
    if ((await countWebhookEndpoints(tx, args.owner)) >= max) {
      throw new DomainError('WEBHOOK_ENDPOINT_LIMIT', `at most ${max} webhook endpoints are allowed; delete one first`);
    }
    const secret = generateWebhookSecret();
    const row = await insertWebhookEndpoint(tx, {
      id: newId('webhookEndpoint', now.getTime()),
      ...ownerColumns(args.owner),
      url: url!,
      description: args.body.description || null,
      eventTypes: [...args.body.eventTypes],
      enabled,
      secret,
      disabledReason: enabled ? null : MANUALLY_DISABLED_REASON,
      disabledAt: enabled ? null : now,
      createdAt: now,
      updatedAt: now,
    });
    return { ...toWebhookEndpoint(row), secret };
  });
}

/** The owner's endpoints, newest first. */
export async function listWebhookEndpoints(db: Db, args: WebhookEndpointScope & PageRequest): Promise<Page<WebhookEndpoint>> {
  await requireWebhookOwnerAccess(db, args);
  const { owner } = args;
  const binding = owner.kind === 'personal' ? cursorBinding('webhook-endpoints', 'user', owner.userId) : cursorBinding('webhook-endpoints', 'workspace', owner.workspaceId);
  const page = readPageRequest(args, { binding, rule: DASHBOARD_PAGE_SIZE, isKey: isIdKey('webhookEndpoint') });
  const rows = await pageWebhookEndpoints(db, { owner, before: page.after?.[0] ?? null, limit: page.limit });
  return toPage(rows, page, (r) => [r.id], toWebhookEndpoint);
}

export async function getWebhookEndpoint(db: Db, args: WebhookEndpointScope & { endpointId: string }): Promise<WebhookEndpoint> {
  await requireWebhookOwnerAccess(db, args);
  return toWebhookEndpoint(await findOwnedWebhookEndpoint(db, args.owner, args.endpointId));
}

/**
 * Applies the given fields; a new URL is checked like a new endpoint's. Re-enabling a disabled
 * endpoint forgets why it was disabled and its run of failures (the five-day clock starts over);
 * `enabled: true` on an enabled endpoint changes nothing, so an edit form that always sends it
 * cannot keep a failing endpoint alive. A patch that changes nothing writes nothing.
 */
export async function updateWebhookEndpoint(
  db: Db,
  args: WebhookEndpointScope & EndpointUrlRules & { endpointId: string; body: UpdateWebhookEndpointBody; now?: Date },
): Promise<WebhookEndpoint> {
  const now = args.now ?? new Date();
  const { url } = await checkedFields(args.owner.kind, args.body, args);
  return db.transaction(async (tx) => {
    await requireWebhookOwnerAccess(tx, args);
    const row = await lockOwnedWebhookEndpoint(tx, args.owner, args.endpointId);
    const changes: Partial<WebhookEndpointRow> = {};
    if (url !== undefined && url !== row.url) changes.url = url;
    if (args.body.description !== undefined && (args.body.description || null) !== row.description) {
      changes.description = args.body.description || null;
    }
    if (args.body.eventTypes !== undefined && args.body.eventTypes.join('\n') !== row.eventTypes.join('\n')) {
      changes.eventTypes = [...args.body.eventTypes];
    }
    if (args.body.enabled === true && !row.enabled) {
      Object.assign(changes, { enabled: true, disabledReason: null, disabledAt: null, failingSince: null });
    } else if (args.body.enabled === false && row.enabled) {
      Object.assign(changes, { enabled: false, disabledReason: MANUALLY_DISABLED_REASON, disabledAt: now });
    }
    if (Object.keys(changes).length === 0) return toWebhookEndpoint(row);
    return toWebhookEndpoint(await updateWebhookEndpointRow(tx, row.id, { ...changes, updatedAt: now }));
  });
}

/** Deletes the endpoint with its deliveries and their attempts (see deleteWebhookEndpointWithDeliveries for the lock order). */
export async function deleteWebhookEndpoint(db: Db, args: WebhookEndpointScope & { endpointId: string }): Promise<void> {
  if (!isIdOf('webhookEndpoint', args.endpointId)) throw webhookEndpointNotFound();
  await db.transaction(async (tx) => {
    await requireWebhookOwnerAccess(tx, args);
    const owned = await findOwnedWebhookEndpoint(tx, args.owner, args.endpointId);
    // Gone by now only if a concurrent delete won: answered like any missing endpoint.
    if (!(await deleteWebhookEndpointWithDeliveries(tx, owned.id))) throw webhookEndpointNotFound();
  });
}

/**
 * A new signing secret, returned only here. The current one becomes the previous secret and
 * keeps signing alongside for 24 h; rotating again within them drops the older one, so at most
 * two secrets are ever valid.
 */
export async function rotateWebhookEndpointSecret(
  db: Db,
  args: WebhookEndpointScope & { endpointId: string; now?: Date },
): Promise<CreatedWebhookEndpoint> {
  const now = args.now ?? new Date();
  return db.transaction(async (tx) => {
    await requireWebhookOwnerAccess(tx, args);
    const row = await lockOwnedWebhookEndpoint(tx, args.owner, args.endpointId);
    const secret = generateWebhookSecret();
    const updated = await updateWebhookEndpointRow(tx, row.id, {
      secret,
      previousSecret: row.secret,
      previousSecretExpiresAt: new Date(now.getTime() + PREVIOUS_SECRET_VALIDITY_MS),
      updatedAt: now,
    });
    return { ...toWebhookEndpoint(updated), secret };
  });
}

/**
 * Records a `webhook.test` event for this endpoint alone (whatever it subscribes to); the
 * dispatcher delivers it like any other. A disabled endpoint would never receive it: 409.
 */
export async function sendWebhookTestEvent(
  db: Db,
  args: WebhookEndpointScope & { endpointId: string; now?: Date },
): Promise<WebhookTestEvent> {
  const now = args.now ?? new Date();
  return db.transaction(async (tx) => {
    await requireWebhookOwnerAccess(tx, args);
    const row = await lockOwnedWebhookEndpoint(tx, args.owner, args.endpointId);
    if (!row.enabled) throw new DomainError('WEBHOOK_ENDPOINT_DISABLED', 'the endpoint is disabled; enable it before sending a test event');
    const audience = args.owner.kind === 'personal' ? { userId: args.owner.userId } : { workspaceId: args.owner.workspaceId };
    const [eventId] = await appendEvents(tx, [
      { type: 'webhook.test', audience, endpointId: row.id, data: { endpointId: row.id, message: WEBHOOK_TEST_MESSAGE }, at: now },
    ]);
    return { eventId: eventId! };
  });
}
