import type { PlannedRequest, RequestOutcome } from '@raffle/service-kit/testing/faults';

const PROJECT_WRITE = 'POST /api/dashboard/workspaces/{id}/projects';
const RAFFLE_WRITE = 'POST /api/dashboard/workspaces/{id}/raffles';

/**
 * Management's request mix under a fault: two reads (the workspace's projects and raffles) and
 * one read of the caller's workspaces for every write, the writes alternating between creating
 * a project (which records `project.created` in the outbox) and a draft raffle. Slugs carry a
 * counter, so every write is a new row that can be looked up afterwards.
 */
export function managementRequestPlan(workspaceId: string, token: string) {
  let sent = 0;
  const headers = { authorization: `Bearer ${token}` };
  const json = { ...headers, 'content-type': 'application/json' };
  const tag = Math.random().toString(36).slice(2, 8);

  const next = (): PlannedRequest => {
    sent += 1;
    if (sent % 8 === 0) {
      const body = JSON.stringify({ slug: `fault-${tag}-${sent}`, name: `Fault project ${sent}` });
      return { kind: 'write', label: PROJECT_WRITE, method: 'POST', path: `/api/dashboard/workspaces/${workspaceId}/projects`, headers: json, body };
    }
    if (sent % 8 === 4) {
      const body = JSON.stringify({ slug: `fault-${tag}-${sent}`, title: `Fault raffle ${sent}`, mechanic: 'raffle', allocationType: 'airdrop', visibility: 'public', spots: 1 });
      return { kind: 'write', label: RAFFLE_WRITE, method: 'POST', path: `/api/dashboard/workspaces/${workspaceId}/raffles`, headers: json, body };
    }
    if (sent % 2 === 1) return { kind: 'read', label: 'GET /api/dashboard/workspaces/{id}/projects', method: 'GET', path: `/api/dashboard/workspaces/${workspaceId}/projects?limit=5`, headers };
    if (sent % 4 === 2) return { kind: 'read', label: 'GET /api/dashboard/workspaces/{id}/raffles', method: 'GET', path: `/api/dashboard/workspaces/${workspaceId}/raffles?limit=5`, headers };
    return { kind: 'read', label: 'GET /api/dashboard/workspaces', method: 'GET', path: '/api/dashboard/workspaces?limit=5', headers };
  };
  return { next };
}

const acknowledged = (outcomes: RequestOutcome[], label: string) =>
  outcomes.filter((o) => o.label === label && o.status === 201).map((o) => (o.body as { id: string }).id);

/** The ids of the projects and raffles the service acknowledged (201) in these outcomes. */
export const acknowledgedWrites = (outcomes: RequestOutcome[]) => ({
  projectIds: acknowledged(outcomes, PROJECT_WRITE),
  raffleIds: acknowledged(outcomes, RAFFLE_WRITE),
});
