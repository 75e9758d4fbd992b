import type { WorkspaceRole } from '@raffle/contracts';
import { requireWorkspaceRole, type WorkspaceAccess } from '@raffle/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { dashboardUserIdOf } from '../../decorations.js';

/** The role each request's hook read, for the handler to hand the domain (a request is checked once). */
const checkedRoles = new WeakMap<FastifyRequest, WorkspaceRole>();

/**
 * A preParsing hook: the caller's access to the workspace is checked before the body is read, so
 * a non-member (or a member without the role) gets the same 403 whatever they send, and learns
 * nothing from validation. It is the cheap first refusal, not the only one: every mutating domain
 * function checks its acting principal again inside its transaction, on the role read here when
 * the handler passes it on (checkedWorkspaceRoleOf), or read again when it does not. The
 * dashboard's raffle pages (dashboard-raffles/dashboard-raffle-reads.ts) are the reads that rely
 * on this hook alone.
 */
export const requireWorkspaceAccess = (app: FastifyInstance, access: WorkspaceAccess) => async (request: FastifyRequest) => {
  const { workspaceId } = request.params as { workspaceId: string };
  checkedRoles.set(request, await requireWorkspaceRole(app.database.db, { workspaceId, userId: dashboardUserIdOf(request)!, access }));
};

/**
 * The caller's role in the route's workspace, as requireWorkspaceAccess read it for this request:
 * the domain applies its rule to it instead of reading it again (RaffleLockTarget's actorRole).
 */
export const checkedWorkspaceRoleOf = (request: FastifyRequest): WorkspaceRole | undefined => checkedRoles.get(request);
