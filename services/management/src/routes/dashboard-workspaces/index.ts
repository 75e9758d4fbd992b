import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  CreateWorkspaceBodySchema,
  DashboardPageQuerySchema,
  DashboardWorkspacePageSchema,
  DashboardWorkspaceSchema,
  UpdateWorkspaceBodySchema,
} from '@raffle/contracts';
import { createWorkspace, getWorkspace, listMyWorkspaces, updateWorkspace, userPrincipal } from '@raffle/domain';
import { Type } from '@sinclair/typebox';
import { cursorsOf, dashboardUserIdOf } from '../../decorations.js';
import { managementResponses } from '../responses.js';
import workspaceMemberRoutes from './members.js';
import { pageRequestOf } from '../shared/page-request.js';
import { DashboardWorkspaceParams } from './params.js';
import { requireWorkspaceAccess } from '../shared/workspace-access.js';

const BASE = '/workspaces';
const TAGS = ['Dashboard workspaces'];

const dashboardWorkspaceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    BASE,
    {
      schema: {
        operationId: 'createWorkspace',
        'x-error-codes': ['SLUG_TAKEN'],
        tags: TAGS,
        summary: 'Create a workspace; the caller becomes its owner',
        body: Type.Ref(CreateWorkspaceBodySchema),
        response: managementResponses(201, Type.Ref(DashboardWorkspaceSchema)),
      },
    },
    async (request, reply) => {
      const workspace = await createWorkspace(app.database.db, { actor: userPrincipal(dashboardUserIdOf(request)!), body: request.body });
      return reply.status(201).send(workspace);
    },
  );

  app.get(
    BASE,
    {
      schema: {
        operationId: 'listMyWorkspaces',
        tags: TAGS,
        summary: "The workspaces the caller is a member of, with the caller's role, oldest first",
        querystring: DashboardPageQuerySchema,
        response: managementResponses(200, Type.Ref(DashboardWorkspacePageSchema)),
      },
    },
    async (request) => listMyWorkspaces(app.database.db, { userId: dashboardUserIdOf(request)!, ...pageRequestOf(request.query, cursorsOf(app)) }),
  );

  app.get(
    `${BASE}/:workspaceId`,
    {
      schema: {
        operationId: 'getWorkspace',
        tags: TAGS,
        summary: 'One workspace the caller is a member of',
        params: DashboardWorkspaceParams,
        response: managementResponses(200, Type.Ref(DashboardWorkspaceSchema)),
      },
      preParsing: requireWorkspaceAccess(app, 'view'),
    },
    async (request) => getWorkspace(app.database.db, { workspaceId: request.params.workspaceId, actor: userPrincipal(dashboardUserIdOf(request)!) }),
  );

  app.patch(
    `${BASE}/:workspaceId`,
    {
      schema: {
        operationId: 'updateWorkspace',
        'x-error-codes': ['SLUG_TAKEN'],
        tags: TAGS,
        summary: "Change a workspace's slug, name or logo",
        description: "Owners and admins only. The workspace's raffles are re-rendered with the new values.",
        params: DashboardWorkspaceParams,
        body: Type.Ref(UpdateWorkspaceBodySchema),
        response: managementResponses(200, Type.Ref(DashboardWorkspaceSchema)),
      },
      preParsing: requireWorkspaceAccess(app, 'manage'),
    },
    async (request) =>
      updateWorkspace(app.database.db, { workspaceId: request.params.workspaceId, actor: userPrincipal(dashboardUserIdOf(request)!), body: request.body }),
  );

  await app.register(workspaceMemberRoutes);
};

export default dashboardWorkspaceRoutes;
