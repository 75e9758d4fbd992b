import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  DashboardWinPageSchema,
  DashboardWinQuerySchema,
  DashboardWinSchema,
  ReasonBodySchema,
  RerolledWinSchema,
  RerollWinBodySchema,
  SetDeliveryBodySchema,
} from '@raffle/contracts';
import { disqualifyWin, rerollWin, setWinDelivery, userPrincipal } from '@raffle/domain';
import { Type } from '@sinclair/typebox';
import { toDashboardWin } from '@raffle/db';
import { cursorsOf, dashboardUserIdOf } from '../../decorations.js';
import { requireWorkspaceAccess } from '../shared/workspace-access.js';
import { managementResponses } from '../responses.js';
import { pageRequestOf } from '../shared/page-request.js';
import { listDashboardWins } from './dashboard-raffle-reads.js';
import { RAFFLE_TAGS, RAFFLES_BASE, RaffleWinParams, WorkspaceRaffleParams } from './params.js';

const WINS = `${RAFFLES_BASE}/:raffleId/wins`;

/** Every win of a raffle (not only the finalized winners), and what the team does with one. */
const raffleWinRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    WINS,
    {
      schema: {
        operationId: 'listRaffleWins',
        tags: RAFFLE_TAGS,
        summary: "A raffle's wins in every status, by position then id",
        description:
          'Any member. Paginated like entries (up to 250 a page, 100 by default): a raffle may have up to 100,000 spots plus rerolls. A disqualified or replaced win is listed beside the win that took its position.',
        params: WorkspaceRaffleParams,
        querystring: DashboardWinQuerySchema,
        response: managementResponses(200, Type.Ref(DashboardWinPageSchema)),
      },
      preParsing: requireWorkspaceAccess(app, 'view'),
    },
    async (request) =>
      listDashboardWins(app.database.db, {
        ...request.params,
        ...pageRequestOf(request.query, cursorsOf(app)),
        status: request.query.status,
      }),
  );

  app.post(
    `${WINS}/:winId/disqualify`,
    {
      schema: {
        operationId: 'disqualifyWin',
        'x-error-codes': ['WIN_NOT_FOUND', 'WIN_CANNOT_DISQUALIFY'],
        tags: RAFFLE_TAGS,
        summary: 'Disqualify a selected or finalized win; its position can then be rerolled',
        description: 'Owners and admins only. Nothing is delivered for it. 409 `WIN_CANNOT_DISQUALIFY` when it is already disqualified or replaced.',
        params: RaffleWinParams,
        body: Type.Ref(ReasonBodySchema),
        response: managementResponses(200, Type.Ref(DashboardWinSchema)),
      },
      preParsing: requireWorkspaceAccess(app, 'manage'),
    },
    async (request) => toDashboardWin(await disqualifyWin(app.database.db, { ...request.params, actor: userPrincipal(dashboardUserIdOf(request)!), reason: request.body.reason })),
  );

  app.post(
    `${WINS}/:winId/reroll`,
    {
      schema: {
        operationId: 'rerollWin',
        'x-error-codes': ['WIN_NOT_FOUND', 'WIN_CANNOT_REROLL', 'NO_ELIGIBLE_ENTRIES'],
        tags: RAFFLE_TAGS,
        summary: "Give a disqualified win's position to the next entry",
        description: [
          'Owners and admins only. A drawn raffle takes the next eligible entry in its frozen draw order, FCFS and collection raffles the next in arrival order, an application raffle the entry named in `entryId`.',
          'Answers the old win (now `replaced`) and the new one at the same position. 409 `WIN_CANNOT_REROLL` unless the win is disqualified and the raffle drawn or finalized; 409 `NO_ELIGIBLE_ENTRIES` when nobody is left. A bodiless POST is accepted.',
        ].join(' '),
        params: RaffleWinParams,
        body: Type.Ref(RerollWinBodySchema),
        response: managementResponses(200, Type.Ref(RerolledWinSchema)),
      },
      preParsing: requireWorkspaceAccess(app, 'manage'),
      config: { optionalBody: true },
    },
    async (request) => {
      const { replaced, replacement } = await rerollWin(app.database.db, { ...request.params, actor: userPrincipal(dashboardUserIdOf(request)!), entryId: request.body.entryId });
      return { replaced: toDashboardWin(replaced), replacement: toDashboardWin(replacement) };
    },
  );

  app.patch(
    `${WINS}/:winId/delivery`,
    {
      schema: {
        operationId: 'setWinDelivery',
        'x-error-codes': ['WIN_NOT_FOUND', 'WIN_CANNOT_UPDATE_DELIVERY'],
        tags: RAFFLE_TAGS,
        summary: "Record a live win's delivery status (and an optional note)",
        description:
          'Owners and admins only. pending, processing and failed move to any other of pending, processing, delivered and failed; delivered is final. Setting the current status again only updates the note. 409 `WIN_CANNOT_UPDATE_DELIVERY` for any other move or a win that is not selected or finalized.',
        params: RaffleWinParams,
        body: Type.Ref(SetDeliveryBodySchema),
        response: managementResponses(200, Type.Ref(DashboardWinSchema)),
      },
      preParsing: requireWorkspaceAccess(app, 'manage'),
    },
    async (request) =>
      toDashboardWin(
        await setWinDelivery(app.database.db, {
          ...request.params,
          actor: userPrincipal(dashboardUserIdOf(request)!),
          deliveryStatus: request.body.deliveryStatus,
          ...(request.body.deliveryNote !== undefined ? { deliveryNote: request.body.deliveryNote } : {}),
        }),
      ),
  );
};

export default raffleWinRoutes;
