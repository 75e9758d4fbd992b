import { PERSONAL_WEBHOOK_EVENTS, WORKSPACE_WEBHOOK_EVENTS, type WebhookEndpoint } from '@raffle/contracts';
import { isoOrAbsent, textOrAbsent, type WebhookEndpointRow, type WebhookOwner } from '@raffle/db';

export type { WebhookEndpointRow, WebhookOwner } from '@raffle/db';

export const MAX_WEBHOOK_ENDPOINTS_PER_OWNER = 20;

/** After a rotation the previous secret keeps signing alongside the new one this long. */
export const PREVIOUS_SECRET_VALIDITY_MS = 24 * 60 * 60 * 1000;

export const WEBHOOK_TEST_MESSAGE = 'This is a test event from the raffle platform';

/** What a disabled endpoint shows when its owner, not the dispatcher, turned it off. */
export const MANUALLY_DISABLED_REASON = 'Disabled manually';

const EVENTS_BY_KIND = {
  personal: new Set<string>(PERSONAL_WEBHOOK_EVENTS),
  workspace: new Set<string>(WORKSPACE_WEBHOOK_EVENTS),
};

/** Event types the owner's kind cannot subscribe to, each with its reason; empty when all are fine. */
export function eventTypeProblems(kind: WebhookOwner['kind'], eventTypes: readonly string[]): string[] {
  const problems: string[] = [];
  const other = kind === 'personal' ? 'workspace' : 'personal';
  for (const type of eventTypes) {
    if (EVENTS_BY_KIND[kind].has(type)) continue;
    problems.push(
      EVENTS_BY_KIND[other].has(type)
        ? `event type ${JSON.stringify(type)} is not available on ${kind} endpoints`
        : `event type ${JSON.stringify(type)} is unknown; see GET /api/developer/capabilities`,
    );
  }
  if (new Set(eventTypes).size !== eventTypes.length) problems.push('eventTypes must not repeat');
  if (eventTypes.length === 0) problems.push('eventTypes must name at least one event type');
  return problems;
}

/**
 * The endpoint as management shows it: never a secret. There is no rotation column; a rotation
 * is the one thing that sets previousSecretExpiresAt, always to rotation time + 24 h.
 */
export function toWebhookEndpoint(row: WebhookEndpointRow): WebhookEndpoint {
  const record: WebhookEndpoint = {
    id: row.id,
    url: row.url,
    eventTypes: [...row.eventTypes],
    enabled: row.enabled,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
  const description = textOrAbsent(row.description);
  const disabledReason = textOrAbsent(row.disabledReason);
  const disabledAt = isoOrAbsent(row.disabledAt);
  const failingSince = isoOrAbsent(row.failingSince);
  const rotatedAt = row.previousSecretExpiresAt && new Date(row.previousSecretExpiresAt.getTime() - PREVIOUS_SECRET_VALIDITY_MS);
  if (description) record.description = description;
  if (disabledReason) record.disabledReason = disabledReason;
  if (disabledAt) record.disabledAt = disabledAt;
  if (failingSince) record.failingSince = failingSince;
  if (rotatedAt) record.secretRotatedAt = rotatedAt.toISOString();
  return record;
}
