import { requireWorkspaceRole, type WorkspaceAccess } from '@raffle/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { dashboardUserIdOf } from '../../decorations.js';

/**
 * A preParsing hook: the caller's access to the workspace is checked before the body is read, so
 * a non-member (or a member without the role) gets the same 403 whatever they send, and learns
 * nothing from validation. It is the cheap first refusal, not the only one: every mutating domain
 * function checks its acting principal again inside its transaction. The dashboard's raffle pages
 * (dashboard-raffles/dashboard-raffle-reads.ts) are the reads that rely on this hook alone.
 */
export const requireWorkspaceAccess = (app: FastifyInstance, access: WorkspaceAccess) => async (request: FastifyRequest) => {
  const { workspaceId } = request.params as { workspaceId: string };
  await requireWorkspaceRole(app.database.db, { workspaceId, userId: dashboardUserIdOf(request)!, access });
};
