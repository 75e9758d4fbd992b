import { requireWorkspaceRole, type WorkspaceAccess } from '@raffle/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * A preParsing hook: the caller's access to the workspace is checked before the body is read, so
 * a non-member (or a member without the role) gets the same 403 whatever they send, and learns
 * nothing from validation. The domain functions check again inside their transactions.
 */
export const requireWorkspaceAccess = (app: FastifyInstance, access: WorkspaceAccess) => async (request: FastifyRequest) => {
  const { workspaceId } = request.params as { workspaceId: string };
  await requireWorkspaceRole(app.database.db, { workspaceId, userId: request.dashboardUserId!, access });
};
