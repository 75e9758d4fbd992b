import type { RelayedEvent } from '@raffle/contracts';
import type { Sql } from '../client.js';
import { endpointSecretVersion } from './endpoint-signing-keys.js';

/**
 * One endpoint an event goes to; `eventIndex` counts the events passed from 1. `secretVersion`
 * is the endpoint's signing-secret version as this statement read it (endpointSecretVersion).
 */
export type FanOutTarget = { eventIndex: number; endpointId: string; secretVersion: number };

/**
 * The endpoints each event goes to: every enabled endpoint that subscribes to the event's type and
 * belongs to its user or workspace (or, for `webhook.test`, the one endpoint it names). One
 * statement for the whole batch, in the events' order.
 */
export async function listFanOutTargets(
  sql: Sql,
  events: readonly Pick<RelayedEvent, 'type' | 'userId' | 'workspaceId' | 'endpointId'>[],
): Promise<FanOutTarget[]> {
  if (events.length === 0) return [];
  return sql<FanOutTarget[]>`
    select m.i::int as "eventIndex", e.id as "endpointId", ${endpointSecretVersion(sql)} as "secretVersion"
    from unnest(${events.map((e) => e.type)}::text[], ${events.map((e) => e.userId)}::text[], ${events.map((e) => e.workspaceId)}::text[],
                ${events.map((e) => e.endpointId)}::text[]) with ordinality as m(type, user_id, workspace_id, endpoint_id, i)
    join webhook_endpoints e on e.enabled and (
      case when m.endpoint_id is not null then e.id = m.endpoint_id
      else m.type = any(e.event_types) and (
        (m.user_id is not null and e.owner_kind = 'personal' and e.user_id = m.user_id)
        or (m.workspace_id is not null and e.owner_kind = 'workspace' and e.workspace_id = m.workspace_id))
      end)
    order by m.i`;
}
