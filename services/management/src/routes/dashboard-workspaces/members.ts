import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AddWorkspaceMemberBodySchema,
  DashboardPageQuerySchema,
  UpdateWorkspaceMemberBodySchema,
  WorkspaceMemberPageSchema,
  WorkspaceMemberSchema,
} from '@raffle/contracts';
import { addMember, listMembers, removeMember, updateMemberRole } from '@raffle/domain';
import { Type } from '@sinclair/typebox';
import { managementResponses } from '../responses.js';
import { noContentResponses } from './no-content.js';
import { DashboardWorkspaceParams, pageRequestOf, WorkspaceMemberParams } from './params.js';
import { requireWorkspaceAccess } from './workspace-access.js';

const BASE = '/api/dashboard/workspaces/:workspaceId/members';
const TAGS = ['Dashboard members'];

const workspaceMemberRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    BASE,
    {
      schema: {
        operationId: 'listWorkspaceMembers',
        tags: TAGS,
        summary: 'The members of a workspace and their roles, in user id order',
        params: DashboardWorkspaceParams,
        querystring: DashboardPageQuerySchema,
        response: managementResponses(200, Type.Ref(WorkspaceMemberPageSchema)),
      },
      preParsing: requireWorkspaceAccess(app, 'view'),
    },
    async (request) =>
      listMembers(app.database.db, { workspaceId: request.params.workspaceId, userId: request.dashboardUserId!, ...pageRequestOf(request.query, app.cursors) }),
  );

  app.post(
    BASE,
    {
      schema: {
        operationId: 'addWorkspaceMember',
        'x-error-codes': ['ALREADY_MEMBER', 'USER_NOT_FOUND'],
        tags: TAGS,
        summary: 'Add an existing user to the workspace with a role',
        description: "Owners and admins only; only an owner may add an owner. 409 when the user is already a member.",
        params: DashboardWorkspaceParams,
        body: Type.Ref(AddWorkspaceMemberBodySchema),
        response: managementResponses(201, Type.Ref(WorkspaceMemberSchema)),
      },
      preParsing: requireWorkspaceAccess(app, 'manage'),
    },
    async (request, reply) => {
      const member = await addMember(app.database.db, { workspaceId: request.params.workspaceId, actorId: request.dashboardUserId!, body: request.body });
      return reply.status(201).send(member);
    },
  );

  app.patch(
    `${BASE}/:userId`,
    {
      schema: {
        operationId: 'updateWorkspaceMember',
        'x-error-codes': ['MEMBER_NOT_FOUND', 'LAST_OWNER'],
        tags: TAGS,
        summary: "Change a member's role",
        description: "Owners and admins only; only an owner may grant 'owner' or change an owner's role. The last owner cannot step down (409).",
        params: WorkspaceMemberParams,
        body: Type.Ref(UpdateWorkspaceMemberBodySchema),
        response: managementResponses(200, Type.Ref(WorkspaceMemberSchema)),
      },
      preParsing: requireWorkspaceAccess(app, 'manage'),
    },
    async (request) =>
      updateMemberRole(app.database.db, {
        workspaceId: request.params.workspaceId,
        actorId: request.dashboardUserId!,
        memberId: request.params.userId,
        role: request.body.role,
      }),
  );

  app.delete(
    `${BASE}/:userId`,
    {
      schema: {
        operationId: 'removeWorkspaceMember',
        'x-error-codes': ['MEMBER_NOT_FOUND', 'LAST_OWNER'],
        tags: TAGS,
        summary: 'Remove a member, or leave the workspace',
        description: 'Owners and admins remove others (only an owner removes an owner); any member may remove themselves. The last owner cannot be removed (409).',
        params: WorkspaceMemberParams,
        response: noContentResponses(),
      },
      // Any member: leaving needs no role. removeMember refuses the rest.
      preParsing: requireWorkspaceAccess(app, 'view'),
    },
    async (request, reply) => {
      await removeMember(app.database.db, { workspaceId: request.params.workspaceId, actorId: request.dashboardUserId!, memberId: request.params.userId });
      return reply.status(204).send(null);
    },
  );
};

export default workspaceMemberRoutes;
