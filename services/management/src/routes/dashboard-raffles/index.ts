import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  CreateRaffleBodySchema,
  DashboardRaffleQuerySchema,
  DashboardRafflePageSchema,
  DashboardRaffleSchema,
  UpdateRaffleBodySchema,
} from '@raffle/contracts';
import { loadDashboardRaffle } from '@raffle/db';
import { createRaffle, editRaffle, userPrincipal } from '@raffle/domain';
import { Type } from '@sinclair/typebox';
import { chainReaderOf, cursorsOf, dashboardUserIdOf, linkableProviders } from '../../decorations.js';
import { DashboardWorkspaceParams } from '../dashboard-workspaces/params.js';
import { requireWorkspaceAccess } from '../shared/workspace-access.js';
import { managementResponses } from '../responses.js';
import { getDashboardRaffle, listDashboardRaffles } from './dashboard-raffle-reads.js';
import raffleAllowlistRoutes from './allowlist.js';
import raffleEntryRoutes from './entries.js';
import raffleExportRoutes from './exports.js';
import raffleLifecycleRoutes from './lifecycle.js';
import raffleWinRoutes from './wins.js';
import webEntryRoutes from './web-entries.js';
import { pageRequestOf } from '../shared/page-request.js';
import { RAFFLE_TAGS, RAFFLES_BASE, WorkspaceRaffleParams } from './params.js';

/**
 * The dashboard's raffle routes: drafts and their edits here, lifecycle actions, entries, wins and
 * their CSV exports in their own files, and the signed-in user's own web entry. Any member of the workspace reads;
 * only owners and admins change anything (checked before the body is read, so a caller without
 * the role learns nothing from validation).
 */
const dashboardRaffleRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    RAFFLES_BASE,
    {
      schema: {
        operationId: 'createRaffle',
        'x-error-codes': ['SLUG_TAKEN', 'PROJECT_NOT_FOUND'],
        tags: RAFFLE_TAGS,
        summary: 'Create a draft raffle in the workspace',
        description:
          "Owners and admins only. Nothing is announced until it is published. 400 `VALIDATION_FAILED` for requirement params (an on-chain requirement must name a chain this platform reads, CHAIN_RPC_URLS; a Discord or X one a provider accounts can be linked with here), endsAt not after startsAt, autoDraw on an application raffle or a project of another workspace; 409 `SLUG_TAKEN` when another raffle of this workspace uses the slug (other workspaces' drafts are not compared: a slug is claimed across workspaces when it is published).",
        params: DashboardWorkspaceParams,
        body: Type.Ref(CreateRaffleBodySchema),
        response: managementResponses(201, Type.Ref(DashboardRaffleSchema)),
      },
      preParsing: requireWorkspaceAccess(app, 'manage'),
      config: { idempotent: true },
    },
    async (request, reply) => {
      const raffle = await createRaffle(app.database.db, {
        actor: userPrincipal(dashboardUserIdOf(request)!),
        workspaceId: request.params.workspaceId,
        body: request.body,
        chains: chainReaderOf(app).chains,
        providers: linkableProviders(app),
      });
      return reply.status(201).send(await loadDashboardRaffle(app.database.db, raffle));
    },
  );

  app.get(
    RAFFLES_BASE,
    {
      schema: {
        operationId: 'listRaffles',
        tags: RAFFLE_TAGS,
        summary: "The workspace's raffles in every status, newest first",
        description:
          'Any member. Items are the workspace list items; GET one raffle for settings, requirement params and every lifecycle time. ' +
          '`status`, `mechanic` and `q` (a case-insensitive search of title and slug) narrow the list on the server; every page of a ' +
          'filtered list holds only matches, and its cursor continues only that filtered list.',
        params: DashboardWorkspaceParams,
        querystring: DashboardRaffleQuerySchema,
        response: managementResponses(200, Type.Ref(DashboardRafflePageSchema)),
      },
      preParsing: requireWorkspaceAccess(app, 'view'),
    },
    async (request) => {
      const { status, mechanic, q, ...page } = request.query;
      return listDashboardRaffles(app.database.db, {
        workspaceId: request.params.workspaceId,
        filter: { status, mechanic, q },
        ...pageRequestOf(page, cursorsOf(app)),
      });
    },
  );

  app.get(
    `${RAFFLES_BASE}/:raffleId`,
    {
      schema: {
        operationId: 'getRaffle',
        tags: RAFFLE_TAGS,
        summary: 'One raffle of the workspace, as its team sees it',
        description: 'Any member.',
        params: WorkspaceRaffleParams,
        response: managementResponses(200, Type.Ref(DashboardRaffleSchema)),
      },
      preParsing: requireWorkspaceAccess(app, 'view'),
    },
    async (request) => getDashboardRaffle(app.database.db, request.params),
  );

  app.patch(
    `${RAFFLES_BASE}/:raffleId`,
    {
      schema: {
        operationId: 'updateRaffle',
        'x-error-codes': ['SLUG_TAKEN', 'PROJECT_NOT_FOUND', 'RAFFLE_CANNOT_UPDATE'],
        tags: RAFFLE_TAGS,
        summary: "Change some of a raffle's fields",
        description:
          'Owners and admins only. A draft takes any field; a scheduled raffle no longer takes slug or mechanic; an open one only title, description, allocationType, visibility, allowAutoEntry, settings, canonicalProjectId and endsAt (in the future). Anything else, or any change once closed, is 409 `RAFFLE_CANNOT_UPDATE`.',
        params: WorkspaceRaffleParams,
        body: Type.Ref(UpdateRaffleBodySchema),
        response: managementResponses(200, Type.Ref(DashboardRaffleSchema)),
      },
      preParsing: requireWorkspaceAccess(app, 'manage'),
    },
    async (request) => {
      const raffle = await editRaffle(app.database.db, { ...request.params, actor: userPrincipal(dashboardUserIdOf(request)!), body: request.body, chains: chainReaderOf(app).chains, providers: linkableProviders(app) });
      return loadDashboardRaffle(app.database.db, raffle);
    },
  );

  await app.register(raffleLifecycleRoutes);
  await app.register(raffleEntryRoutes);
  await app.register(raffleWinRoutes);
  await app.register(raffleAllowlistRoutes);
  await app.register(raffleExportRoutes);
  await app.register(webEntryRoutes);
};

export default dashboardRaffleRoutes;
