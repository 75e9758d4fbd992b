import {
  PageOf,
  PAGE_SIZES,
  PageQuerySchema,
  WinnerSchema,
  WorkspaceEntrySchema,
  WorkspaceRaffleItemSchema,
  WorkspaceRaffleSchema,
} from '@raffle/contracts';
import { findWorkspaceRaffle, listFinalizedWinnerJson, pageRaffleEntries, pageWorkspaceRaffles } from '@raffle/db';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { isString } from '../../domain/cursor.js';
import { createRaffleOwnership } from '../../domain/raffle-ownership.js';
import { ApiError } from '../../errors.js';
import { dataPlaneResponses, WorkspaceParams, WorkspaceRaffleParams } from '../responses.js';
import { renderKeysetPage } from '../keyset-page.js';
import { sendRenderedJson } from '../send-json.js';

export const WorkspaceRafflePageSchema = PageOf(Type.Ref(WorkspaceRaffleItemSchema), 'WorkspaceRafflePage');
export const WorkspaceEntryPageSchema = PageOf(Type.Ref(WorkspaceEntrySchema), 'WorkspaceEntryPage');

const workspaceRaffleRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addSchema(WorkspaceRafflePageSchema);
  app.addSchema(WorkspaceEntryPageSchema);
  const ownership = createRaffleOwnership(app.database.sql);

  app.get(
    '/api/v1/workspaces/:workspaceId/raffles',
    {
      config: { access: { keyType: 'workspace', scope: 'raffles:read' } },
      schema: {
        operationId: 'listWorkspaceRaffles',
        tags: ['Workspace'],
        summary: 'List raffles owned by the workspace, newest first',
        params: WorkspaceParams,
        querystring: PageQuerySchema(PAGE_SIZES.workspaceRaffles),
        response: dataPlaneResponses(Type.Ref(WorkspaceRafflePageSchema)),
      },
    },
    async (request, reply) => {
      const { workspaceId } = request.params;
      const { limit = PAGE_SIZES.workspaceRaffles.default, cursor } = request.query;
      const body = await renderKeysetPage(app, {
        binding: `v1:workspace-raffles:${workspaceId}`,
        cursor,
        isKey: isString,
        load: (before) => pageWorkspaceRaffles(app.database.sql, { workspaceId, before, limit }),
      });
      return sendRenderedJson(reply, body);
    },
  );

  app.get(
    '/api/v1/workspaces/:workspaceId/raffles/:raffleId',
    {
      config: { access: { keyType: 'workspace', scope: 'raffles:read' } },
      schema: {
        operationId: 'getWorkspaceRaffle',
        'x-error-codes': ['RAFFLE_NOT_FOUND'],
        tags: ['Workspace'],
        summary: 'One raffle of the workspace',
        params: WorkspaceRaffleParams,
        response: dataPlaneResponses(Type.Ref(WorkspaceRaffleSchema)),
      },
    },
    async (request) => {
      const raffle = await findWorkspaceRaffle(app.database.db, request.params);
      if (!raffle) throw new ApiError('RAFFLE_NOT_FOUND', `no raffle ${request.params.raffleId} in this workspace`);
      return raffle;
    },
  );

  app.get(
    '/api/v1/workspaces/:workspaceId/raffles/:raffleId/entries',
    {
      config: { access: { keyType: 'workspace', scope: 'entries:read' } },
      schema: {
        operationId: 'listRaffleEntries',
        'x-error-codes': ['RAFFLE_NOT_FOUND'],
        tags: ['Workspace'],
        summary: 'List entries of a raffle in arrival order',
        params: WorkspaceRaffleParams,
        querystring: PageQuerySchema(PAGE_SIZES.workspaceRaffleEntries),
        response: dataPlaneResponses(Type.Ref(WorkspaceEntryPageSchema)),
      },
    },
    async (request, reply) => {
      const { workspaceId, raffleId } = request.params;
      await ownership.require(workspaceId, raffleId);
      const { limit = PAGE_SIZES.workspaceRaffleEntries.default, cursor } = request.query;
      const body = await renderKeysetPage(app, {
        binding: `v1:raffle-entries:${workspaceId}:${raffleId}`,
        cursor,
        isKey: isString,
        load: (after) => pageRaffleEntries(app.database.sql, { raffleId, after, limit }),
      });
      return sendRenderedJson(reply, body);
    },
  );

  app.get(
    '/api/v1/workspaces/:workspaceId/raffles/:raffleId/winners',
    {
      config: { access: { keyType: 'workspace', scope: 'winners:read' } },
      schema: {
        operationId: 'listRaffleWinners',
        'x-error-codes': ['RAFFLE_NOT_FOUND'],
        tags: ['Workspace'],
        summary: 'Finalized winners of a raffle, by position (a bare array, not paginated)',
        params: WorkspaceRaffleParams,
        response: dataPlaneResponses(Type.Array(Type.Ref(WinnerSchema))),
      },
    },
    async (request, reply) => {
      const { workspaceId, raffleId } = request.params;
      await ownership.require(workspaceId, raffleId);
      const winners = await listFinalizedWinnerJson(app.database.sql, raffleId);
      return sendRenderedJson(reply, `[${winners.join(',')}]`);
    },
  );
};

export default workspaceRaffleRoutes;
