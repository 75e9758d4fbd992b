import { PageOf, PAGE_SIZES, PageQuerySchema, ProjectSchema } from '@raffle/contracts';
import { findWorkspaceProjectJson, pageWorkspaceProjects } from '@raffle/db';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { cursorBinding, DomainError, isStringKey, loadJsonPage } from '@raffle/domain';
import { cursorsOf, readRoutingOf } from '../../decorations.js';
import { dataPlaneReadResponses, RoutedReadHeaders, WorkspaceParams, WorkspaceProjectParams } from '../responses.js';
import { sendRenderedJson } from '@raffle/service-kit';

export const ProjectPageSchema = PageOf(Type.Ref(ProjectSchema), 'ProjectPage');

const workspaceProjectRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Read once: the codec is decorated before any route plugin registers.
  const cursors = cursorsOf(app);
  const reads = readRoutingOf(app);
  app.addSchema(ProjectPageSchema);

  app.get(
    '/workspaces/:workspaceId/projects',
    {
      config: { access: { keyType: 'workspace', scope: 'projects:read' } },
      schema: {
        operationId: 'listWorkspaceProjects',
        tags: ['Workspace'],
        summary: 'List projects of the workspace, oldest first',
        params: WorkspaceParams,
        querystring: PageQuerySchema(PAGE_SIZES.workspaceProjects),
        headers: RoutedReadHeaders,
        response: dataPlaneReadResponses(Type.Ref(ProjectPageSchema)),
      },
    },
    async (request, reply) => {
      const { workspaceId } = request.params;
      const body = await reads.read(request, reply, (database) =>
        loadJsonPage(
          { ...request.query, cursors },
          { binding: cursorBinding('v1:projects', workspaceId), rule: PAGE_SIZES.workspaceProjects, isKey: isStringKey },
          (after, limit) => pageWorkspaceProjects(database.sql, { workspaceId, after, limit }),
          (row) => row.id,
        ),
      );
      return sendRenderedJson(reply, body);
    },
  );

  app.get(
    '/workspaces/:workspaceId/projects/:projectId',
    {
      config: { access: { keyType: 'workspace', scope: 'projects:read' } },
      schema: {
        operationId: 'getWorkspaceProject',
        'x-error-codes': ['PROJECT_NOT_FOUND'],
        tags: ['Workspace'],
        summary: 'One project of the workspace',
        params: WorkspaceProjectParams,
        headers: RoutedReadHeaders,
        response: dataPlaneReadResponses(Type.Ref(ProjectSchema)),
      },
    },
    async (request, reply) => {
      const json = await reads.read(request, reply, (database) => findWorkspaceProjectJson(database.sql, request.params));
      if (!json) throw new DomainError('PROJECT_NOT_FOUND', `no project ${request.params.projectId} in this workspace`);
      return sendRenderedJson(reply, json);
    },
  );
};

export default workspaceProjectRoutes;
