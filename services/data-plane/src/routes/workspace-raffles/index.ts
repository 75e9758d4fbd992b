import {
  PageOf,
  PAGE_SIZES,
  PageQuerySchema,
  RaffleListFilterFields,
  WinnerSchema,
  WorkspaceEntrySchema,
  WorkspaceRaffleItemSchema,
  WorkspaceRaffleSchema,
} from '@raffle/contracts';
import { findWorkspaceRaffle, listFinalizedWinnerJson, pageRaffleEntries, pageWorkspaceRaffles } from '@raffle/db';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { cursorBinding, DomainError, isStringKey, loadJsonPage, raffleFilterBinding } from '@raffle/domain';
import { cursorsOf, readRoutingOf } from '../../decorations.js';
import { dataPlaneReadResponses, RoutedReadHeaders, WorkspaceParams, WorkspaceRaffleParams } from '../responses.js';
import { sendRenderedJson } from '@raffle/service-kit';
import { createRaffleOwnership } from './raffle-ownership.js';
import raffleExportRoutes from './raffle-exports.js';

export const WorkspaceRafflePageSchema = PageOf(Type.Ref(WorkspaceRaffleItemSchema), 'WorkspaceRafflePage');
export const WorkspaceEntryPageSchema = PageOf(Type.Ref(WorkspaceEntrySchema), 'WorkspaceEntryPage');

/** The list's page, narrowed on the server by status, mechanic and a title/slug search. */
const WorkspaceRaffleQuerySchema = Type.Object({ ...PageQuerySchema(PAGE_SIZES.workspaceRaffles).properties, ...RaffleListFilterFields });

const workspaceRaffleRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Read once: the codec is decorated before any route plugin registers.
  const cursors = cursorsOf(app);
  const reads = readRoutingOf(app);
  app.addSchema(WorkspaceRafflePageSchema);
  app.addSchema(WorkspaceEntryPageSchema);
  const ownership = createRaffleOwnership(app.database.sql);

  app.get(
    '/workspaces/:workspaceId/raffles',
    {
      config: { access: { keyType: 'workspace', scope: 'raffles:read' } },
      schema: {
        operationId: 'listWorkspaceRaffles',
        tags: ['Workspace'],
        summary: 'List raffles owned by the workspace, newest first',
        description:
          '`status`, `mechanic` and `q` (a case-insensitive search of title and slug) narrow the list on the server; every page of a ' +
          'filtered list holds only matches, and its cursor continues only that filtered list.',
        params: WorkspaceParams,
        querystring: WorkspaceRaffleQuerySchema,
        headers: RoutedReadHeaders,
        response: dataPlaneReadResponses(Type.Ref(WorkspaceRafflePageSchema)),
      },
    },
    async (request, reply) => {
      const { workspaceId } = request.params;
      const { status, mechanic, q, ...page } = request.query;
      const filter = { status, mechanic, q };
      const body = await reads.read(request, reply, (database) =>
        loadJsonPage(
          { ...page, cursors },
          { binding: cursorBinding('v1:workspace-raffles', workspaceId, ...raffleFilterBinding(filter)), rule: PAGE_SIZES.workspaceRaffles, isKey: isStringKey },
          (after, limit) => pageWorkspaceRaffles(database.sql, { workspaceId, before: after, limit, filter }),
          (row) => row.id,
        ),
      );
      return sendRenderedJson(reply, body);
    },
  );

  app.get(
    '/workspaces/:workspaceId/raffles/:raffleId',
    {
      config: { access: { keyType: 'workspace', scope: 'raffles:read' } },
      schema: {
        operationId: 'getWorkspaceRaffle',
        'x-error-codes': ['RAFFLE_NOT_FOUND'],
        tags: ['Workspace'],
        summary: 'One raffle of the workspace',
        params: WorkspaceRaffleParams,
        headers: RoutedReadHeaders,
        response: dataPlaneReadResponses(Type.Ref(WorkspaceRaffleSchema)),
      },
    },
    async (request, reply) => {
      const raffle = await reads.read(request, reply, (database) => findWorkspaceRaffle(database.db, request.params));
      if (!raffle) throw new DomainError('RAFFLE_NOT_FOUND', `no raffle ${request.params.raffleId} in this workspace`);
      return raffle;
    },
  );

  app.get(
    '/workspaces/:workspaceId/raffles/:raffleId/entries',
    {
      config: { access: { keyType: 'workspace', scope: 'entries:read' } },
      schema: {
        operationId: 'listRaffleEntries',
        'x-error-codes': ['RAFFLE_NOT_FOUND'],
        tags: ['Workspace'],
        summary: 'List entries of a raffle in arrival order',
        params: WorkspaceRaffleParams,
        querystring: PageQuerySchema(PAGE_SIZES.workspaceRaffleEntries),
        headers: RoutedReadHeaders,
        response: dataPlaneReadResponses(Type.Ref(WorkspaceEntryPageSchema)),
      },
    },
    async (request, reply) => {
      const { workspaceId, raffleId } = request.params;
      await ownership.require(workspaceId, raffleId);
      const body = await reads.read(request, reply, (database) =>
        loadJsonPage(
          { ...request.query, cursors },
          { binding: cursorBinding('v1:raffle-entries', workspaceId, raffleId), rule: PAGE_SIZES.workspaceRaffleEntries, isKey: isStringKey },
          (after, limit) => pageRaffleEntries(database.sql, { raffleId, after, limit }),
          (row) => row.id,
        ),
      );
      return sendRenderedJson(reply, body);
    },
  );

  app.get(
    '/workspaces/:workspaceId/raffles/:raffleId/winners',
    {
      config: { access: { keyType: 'workspace', scope: 'winners:read' } },
      schema: {
        operationId: 'listRaffleWinners',
        'x-error-codes': ['RAFFLE_NOT_FOUND'],
        tags: ['Workspace'],
        summary: 'Finalized winners of a raffle, by position (a bare array, not paginated)',
        params: WorkspaceRaffleParams,
        headers: RoutedReadHeaders,
        response: dataPlaneReadResponses(Type.Array(Type.Ref(WinnerSchema))),
      },
    },
    async (request, reply) => {
      const { workspaceId, raffleId } = request.params;
      await ownership.require(workspaceId, raffleId);
      const winners = await reads.read(request, reply, (database) => listFinalizedWinnerJson(database.sql, raffleId));
      return sendRenderedJson(reply, `[${winners.join(',')}]`);
    },
  );

  await app.register(raffleExportRoutes);
};

export default workspaceRaffleRoutes;
