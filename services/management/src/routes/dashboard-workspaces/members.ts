import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AddWorkspaceMemberBodySchema,
  DashboardPageQuerySchema,
  UpdateWorkspaceMemberBodySchema,
  WorkspaceMemberPageSchema,
  WorkspaceMemberSchema,
} from '@raffle/contracts';
import { addMember, listMembers, removeMember, updateMemberRole, userPrincipal } from '@raffle/domain';
import { Type } from '@sinclair/typebox';
import { cursorsOf, dashboardUserIdOf } from '../../decorations.js';
import { managementResponses } from '../responses.js';
import { noContentResponses } from '../shared/no-content.js';
import { pageRequestOf } from '../shared/page-request.js';
import { DashboardWorkspaceParams, WorkspaceMemberParams } from './params.js';
import { requireWorkspaceAccess } from '../shared/workspace-access.js';

const BASE = '/workspaces/:workspaceId/members';
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
      listMembers(app.database.db, {
        workspaceId: request.params.workspaceId,
        actor: userPrincipal(dashboardUserIdOf(request)!),
        ...pageRequestOf(request.query, cursorsOf(app)),
      }),
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
      const member = await addMember(app.database.db, { workspaceId: request.params.workspaceId, actor: userPrincipal(dashboardUserIdOf(request)!), body: request.body });
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
        actor: userPrincipal(dashboardUserIdOf(request)!),
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
      await removeMember(app.database.db, {
        workspaceId: request.params.workspaceId,
        actor: userPrincipal(dashboardUserIdOf(request)!),
        memberId: request.params.userId,
      });
      return reply.status(204).send(null);
    },
  );
};

export default workspaceMemberRoutes;
