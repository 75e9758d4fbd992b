import { PageOf, PAGE_SIZES, PageQuerySchema, ProjectSchema } from '@raffle/contracts';
import { findWorkspaceProjectJson, pageWorkspaceProjects } from '@raffle/db';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { isString } from '../../domain/cursor.js';
import { ApiError } from '../../errors.js';
import { dataPlaneResponses, WorkspaceParams, WorkspaceProjectParams } from '../responses.js';
import { renderKeysetPage } from '../keyset-page.js';
import { sendRenderedJson } from '../send-json.js';

export const ProjectPageSchema = PageOf(Type.Ref(ProjectSchema), 'ProjectPage');

const workspaceProjectRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addSchema(ProjectPageSchema);

  app.get(
    '/api/v1/workspaces/:workspaceId/projects',
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
      const { limit = PAGE_SIZES.workspaceProjects.default, cursor } = request.query;
      const body = await renderKeysetPage(app, {
        binding: `v1:projects:${workspaceId}`,
        cursor,
        isKey: isString,
        load: (after) => pageWorkspaceProjects(app.database.sql, { workspaceId, after, limit }),
      });
      return sendRenderedJson(reply, body);
    },
  );

  app.get(
    '/api/v1/workspaces/:workspaceId/projects/:projectId',
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
      if (!json) throw new ApiError('PROJECT_NOT_FOUND', `no project ${request.params.projectId} in this workspace`);
      return sendRenderedJson(reply, json);
    },
  );
};

export default workspaceProjectRoutes;
