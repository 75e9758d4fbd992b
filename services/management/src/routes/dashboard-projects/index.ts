import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  CreateProjectBodySchema,
  DashboardPageQuerySchema,
  DashboardProjectPageSchema,
  ProjectSchema,
  UpdateProjectBodySchema,
} from '@raffle/contracts';
import { createProject, deleteProject, getProject, listProjects, updateProject, userPrincipal } from '@raffle/domain';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { cursorsOf, dashboardUserIdOf } from '../../decorations.js';
import { managementResponses } from '../responses.js';
import { noContentResponses } from '../shared/no-content.js';
import { DashboardWorkspaceParams, WorkspaceProjectParams } from '../dashboard-workspaces/params.js';
import { pageRequestOf } from '../shared/page-request.js';
import { requireWorkspaceAccess } from '../shared/workspace-access.js';

const BASE = '/workspaces/:workspaceId/projects';
const TAGS = ['Dashboard projects'];

const dashboardProjectRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const scope = (request: FastifyRequest & { params: { workspaceId: string } }) => ({
    workspaceId: request.params.workspaceId,
    actor: userPrincipal(dashboardUserIdOf(request)!),
  });

  app.post(
    BASE,
    {
      schema: {
        operationId: 'createProject',
        'x-error-codes': ['SLUG_TAKEN'],
        tags: TAGS,
        summary: 'Create a project in the workspace',
        description: 'Owners and admins only. Records a `project.created` webhook event.',
        params: DashboardWorkspaceParams,
        body: Type.Ref(CreateProjectBodySchema),
        response: managementResponses(201, Type.Ref(ProjectSchema)),
      },
      preParsing: requireWorkspaceAccess(app, 'manage'),
    },
    async (request, reply) => {
      const project = await createProject(app.database.db, { ...scope(request), body: request.body });
      return reply.status(201).send(project);
    },
  );

  app.get(
    BASE,
    {
      schema: {
        operationId: 'listProjects',
        tags: TAGS,
        summary: "The workspace's projects, oldest first",
        params: DashboardWorkspaceParams,
        querystring: DashboardPageQuerySchema,
        response: managementResponses(200, Type.Ref(DashboardProjectPageSchema)),
      },
      preParsing: requireWorkspaceAccess(app, 'view'),
    },
    async (request) => listProjects(app.database.db, { ...scope(request), ...pageRequestOf(request.query, cursorsOf(app)) }),
  );

  app.get(
    `${BASE}/:projectId`,
    {
      schema: {
        operationId: 'getProject',
        'x-error-codes': ['PROJECT_NOT_FOUND'],
        tags: TAGS,
        summary: 'One project of the workspace, as the data plane shows it',
        params: WorkspaceProjectParams,
        response: managementResponses(200, Type.Ref(ProjectSchema)),
      },
      preParsing: requireWorkspaceAccess(app, 'view'),
    },
    async (request) => getProject(app.database.db, { ...scope(request), projectId: request.params.projectId }),
  );

  app.patch(
    `${BASE}/:projectId`,
    {
      schema: {
        operationId: 'updateProject',
        'x-error-codes': ['PROJECT_NOT_FOUND', 'SLUG_TAKEN'],
        tags: TAGS,
        summary: "Change some of a project's fields; null clears an optional one",
        description: 'Owners and admins only. Records a `project.updated` webhook event when something changed.',
        params: WorkspaceProjectParams,
        body: Type.Ref(UpdateProjectBodySchema),
        response: managementResponses(200, Type.Ref(ProjectSchema)),
      },
      preParsing: requireWorkspaceAccess(app, 'manage'),
    },
    async (request) => updateProject(app.database.db, { ...scope(request), projectId: request.params.projectId, body: request.body }),
  );

  app.delete(
    `${BASE}/:projectId`,
    {
      schema: {
        operationId: 'deleteProject',
        'x-error-codes': ['PROJECT_NOT_FOUND'],
        tags: TAGS,
        summary: 'Delete a project; raffles naming it lose their canonical project',
        description: 'Owners and admins only.',
        params: WorkspaceProjectParams,
        response: noContentResponses(),
      },
      preParsing: requireWorkspaceAccess(app, 'manage'),
    },
    async (request, reply) => {
      await deleteProject(app.database.db, { ...scope(request), projectId: request.params.projectId });
      return reply.status(204).send(null);
    },
  );
};

export default dashboardProjectRoutes;
