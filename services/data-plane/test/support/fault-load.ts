import { randomUUID } from 'node:crypto';
import type { PlannedRequest, RequestOutcome } from '@raffle/service-kit/testing/faults';
import type { FaultTenant } from './fault-tenant.js';

/**
 * The data plane's request mix under a fault: three reads (personal profile, the public raffle
 * list, a workspace's raffles) for every write (entering a raffle with an Idempotency-Key). Each
 * write is a fresh (entrant, raffle) pair, so a 201 is one new entry; once every pair is used the
 * plan sends reads only. Each entrant comes from its own address (TRUST_PROXY is on) so the
 * duplicate-IP check does not make every entry rewrite the raffle's earlier ones.
 */
export function dataPlaneRequestPlan(tenant: FaultTenant) {
  let sent = 0;
  let nextPair = 0;
  const pairs = tenant.entrants.length * tenant.raffleSlugs.length;
  const addressOf = (index: number) => `10.77.${index >> 8}.${index & 255}`;

  const next = (): PlannedRequest => {
    sent += 1;
    const reader = tenant.entrants[sent % tenant.entrants.length]!;
    const personal = { authorization: `Bearer ${reader.apiKey}`, 'x-forwarded-for': addressOf(sent % tenant.entrants.length) };
    if (sent % 4 === 0 && nextPair < pairs) {
      const pair = nextPair++;
      const entrantIndex = pair % tenant.entrants.length;
      const entrant = tenant.entrants[entrantIndex]!;
      const slug = tenant.raffleSlugs[Math.floor(pair / tenant.entrants.length)]!;
      return {
        kind: 'write',
        label: 'POST /api/v1/raffles/{slug}/entries',
        method: 'POST',
        path: `/api/v1/raffles/${slug}/entries`,
        headers: { authorization: `Bearer ${entrant.apiKey}`, 'idempotency-key': randomUUID(), 'x-forwarded-for': addressOf(entrantIndex) },
      };
    }
    if (sent % 4 === 1) return { kind: 'read', label: 'GET /api/v1/me', method: 'GET', path: '/api/v1/me', headers: personal };
    if (sent % 4 === 2) return { kind: 'read', label: 'GET /api/v1/raffles', method: 'GET', path: '/api/v1/raffles?limit=5', headers: personal };
    return {
      kind: 'read',
      label: 'GET /api/v1/workspaces/{id}/raffles',
      method: 'GET',
      path: `/api/v1/workspaces/${tenant.workspace.id}/raffles?limit=5`,
      headers: { authorization: `Bearer ${tenant.workspaceKey}` },
    };
  };
  return { next };
}

/** The ids of the entries the service acknowledged (201) in these outcomes. */
export const acknowledgedEntryIds = (outcomes: RequestOutcome[]) =>
  outcomes.filter((o) => o.kind === 'write' && o.status === 201).map((o) => (o.body as { id: string }).id);
