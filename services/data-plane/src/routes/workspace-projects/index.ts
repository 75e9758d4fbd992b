import { PageOf, PAGE_SIZES, PageQuerySchema, ProjectSchema } from '@raffle/contracts';
import { findWorkspaceProjectJson, pageWorkspaceProjects } from '@raffle/db';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { cursorBinding, DomainError, isStringKey, loadJsonPage } from '@raffle/domain';
import { cursorsOf } from '../../decorations.js';
import { dataPlaneResponses, WorkspaceParams, WorkspaceProjectParams } from '../responses.js';
import { sendRenderedJson } from '@raffle/service-kit';

export const ProjectPageSchema = PageOf(Type.Ref(ProjectSchema), 'ProjectPage');

const workspaceProjectRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Read once: the codec is decorated before any route plugin registers.
  const cursors = cursorsOf(app);
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
        response: dataPlaneResponses(Type.Ref(ProjectPageSchema)),
      },
    },
    async (request, reply) => {
      const { workspaceId } = request.params;
      const body = await loadJsonPage(
        { ...request.query, cursors },
        { binding: cursorBinding('v1:projects', workspaceId), rule: PAGE_SIZES.workspaceProjects, isKey: isStringKey },
        (after, limit) => pageWorkspaceProjects(app.database.sql, { workspaceId, after, limit }),
        (row) => row.id,
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
        response: dataPlaneResponses(Type.Ref(ProjectSchema)),
      },
    },
    async (request, reply) => {
      const json = await findWorkspaceProjectJson(app.database.sql, request.params);
      if (!json) throw new DomainError('PROJECT_NOT_FOUND', `no project ${request.params.projectId} in this workspace`);
      return sendRenderedJson(reply, json);
    },
  );
};

export default workspaceProjectRoutes;
