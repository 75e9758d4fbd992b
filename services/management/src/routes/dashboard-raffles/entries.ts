import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DashboardEntryPageSchema, DashboardEntryQuerySchema, EntryRequirementResultsSchema, ReasonBodySchema, WorkspaceEntrySchema, type WorkspaceEntry } from '@raffle/contracts';
import { disqualifyEntry, userPrincipal } from '@raffle/domain';
import { Type } from '@sinclair/typebox';
import { cursorsOf, dashboardUserIdOf } from '../../decorations.js';
import { requireWorkspaceAccess } from '../shared/workspace-access.js';
import { managementResponses } from '../responses.js';
import { pageRequestOf } from '../shared/page-request.js';
import { getEntryRequirementResults, listDashboardEntries } from './dashboard-raffle-reads.js';
import { RAFFLE_TAGS, RAFFLES_BASE, RaffleEntryParams, WorkspaceRaffleParams } from './params.js';

/** A raffle's entries as the workspace sees them (duplicate flags included), and disqualifying one. */
const raffleEntryRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    `${RAFFLES_BASE}/:raffleId/entries`,
    {
      schema: {
        operationId: 'listRaffleEntries',
        tags: RAFFLE_TAGS,
        summary: "A raffle's entries in arrival order, optionally in one status",
        description: 'Any member. Up to 250 a page (100 by default); a cursor continues only the list (and status filter) that issued it.',
        params: WorkspaceRaffleParams,
        querystring: DashboardEntryQuerySchema,
        response: managementResponses(200, Type.Ref(DashboardEntryPageSchema)),
      },
      preParsing: requireWorkspaceAccess(app, 'view'),
    },
    async (request) =>
      listDashboardEntries(app.database.db, {
        ...request.params,
        ...pageRequestOf(request.query, cursorsOf(app)),
        status: request.query.status,
      }),
  );

  app.get(
    `${RAFFLES_BASE}/:raffleId/entries/:entryId/requirements`,
    {
      schema: {
        operationId: 'getEntryRequirementResults',
        'x-error-codes': ['ENTRY_NOT_FOUND'],
        tags: RAFFLE_TAGS,
        summary: "Which of the raffle's requirements an entry passed or failed",
        description:
          "Owners and admins only. Each requirement's type, label and whether the entry passed it. Not the `detail` the entrant sees on their own entry (what their wallets hold, e.g. \"holds 0 Nebula Pass, needs 1\"), never the evidence behind it, never a wallet. 404 `ENTRY_NOT_FOUND` when the raffle has no such entry.",
        params: RaffleEntryParams,
        response: managementResponses(200, Type.Ref(EntryRequirementResultsSchema)),
      },
      preParsing: requireWorkspaceAccess(app, 'manage'),
    },
    async (request) => getEntryRequirementResults(app.database.db, request.params),
  );

  app.post(
    `${RAFFLES_BASE}/:raffleId/entries/:entryId/disqualify`,
    {
      schema: {
        operationId: 'disqualifyEntry',
        'x-error-codes': ['ENTRY_NOT_FOUND', 'ENTRY_CANNOT_DISQUALIFY'],
        tags: RAFFLE_TAGS,
        summary: 'Disqualify an entry; a win it holds is disqualified with it',
        description:
          'Owners and admins only. The freed position can then be rerolled. 409 `ENTRY_CANNOT_DISQUALIFY` when the entry is already withdrawn or disqualified, or the raffle is cancelled.',
        params: RaffleEntryParams,
        body: Type.Ref(ReasonBodySchema),
        response: managementResponses(200, Type.Ref(WorkspaceEntrySchema)),
      },
      preParsing: requireWorkspaceAccess(app, 'manage'),
    },
    async (request) => {
      const entry = await disqualifyEntry(app.database.db, { ...request.params, actor: userPrincipal(dashboardUserIdOf(request)!), reason: request.body.reason });
      return JSON.parse(entry.workspaceJson) as WorkspaceEntry;
    },
  );
};

export default raffleEntryRoutes;
