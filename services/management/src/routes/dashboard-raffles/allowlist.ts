import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AllowlistLeafPageSchema, AllowlistSchema, DashboardAllowlistLeafQuerySchema } from '@raffle/contracts';
import { findAllowlistRaffle, isIdOf, type AllowlistRaffleRow, type Db } from '@raffle/db';
import { allowlistLeafPage, allowlistView, DomainError } from '@raffle/domain';
import { Type } from '@sinclair/typebox';
import { cursorsOf } from '../../decorations.js';
import { managementResponses } from '../responses.js';
import { pageRequestOf } from '../shared/page-request.js';
import { requireWorkspaceAccess } from '../shared/workspace-access.js';
import { RAFFLE_TAGS, RAFFLES_BASE, WorkspaceRaffleParams } from './params.js';

const ALLOWLIST = `${RAFFLES_BASE}/:raffleId/allowlist`;

/** The workspace's raffle as its allowlist reads it; another workspace's reads as missing. */
async function workspaceAllowlistRaffle(db: Db, args: { workspaceId: string; raffleId: string }): Promise<AllowlistRaffleRow> {
  const raffle = isIdOf('raffle', args.raffleId) ? await findAllowlistRaffle(db, args.raffleId) : null;
  if (!raffle || raffle.workspaceId !== args.workspaceId) throw new DomainError('RAFFLE_NOT_FOUND', `no raffle ${args.raffleId} in this workspace`);
  return raffle;
}

/**
 * A raffle's allowlist for the console (issue 35): the same answers as the data plane's workspace
 * routes. Any member reads it, as any member reads the raffle's wins it is built from.
 */
const raffleAllowlistRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    ALLOWLIST,
    {
      schema: {
        operationId: 'getRaffleAllowlist',
        tags: RAFFLE_TAGS,
        summary: "A raffle's allowlist: its status, current Merkle root and every published version",
        description:
          'Any member. `status` is `not_applicable` unless the allocation is `allowlist_gtd` or `allowlist_fcfs`, `awaiting_finalize` before finalize, `awaiting_wallets` until `walletDeadline`, ' +
          '`building` while a version is built, then `published`. Versions are listed newest first; none is ever replaced or removed.',
        params: WorkspaceRaffleParams,
        response: managementResponses(200, Type.Ref(AllowlistSchema)),
      },
      preParsing: requireWorkspaceAccess(app, 'view'),
    },
    async (request) => allowlistView(app.database.db, await workspaceAllowlistRaffle(app.database.db, request.params), new Date()),
  );

  app.get(
    `${ALLOWLIST}/leaves`,
    {
      schema: {
        operationId: 'listRaffleAllowlistLeaves',
        'x-error-codes': ['NOT_FOUND', 'ALLOWLIST_NOT_PUBLISHED'],
        tags: RAFFLE_TAGS,
        summary: "A version's leaves, each with its Merkle proof, in address order",
        description:
          'Any member. The latest version unless `version` names another (404 `NOT_FOUND` for one it does not have); `address` narrows the page to that wallet\'s leaf (the console\'s wallet lookup). ' +
          'Up to 250 a page, 100 by default. 409 `ALLOWLIST_NOT_PUBLISHED` while no version is published.',
        params: WorkspaceRaffleParams,
        querystring: DashboardAllowlistLeafQuerySchema,
        response: managementResponses(200, Type.Ref(AllowlistLeafPageSchema)),
      },
      preParsing: requireWorkspaceAccess(app, 'view'),
    },
    async (request) => {
      const { version, address, ...page } = request.query;
      const raffle = await workspaceAllowlistRaffle(app.database.db, request.params);
      return allowlistLeafPage(app.database.db, raffle, { ...pageRequestOf(page, cursorsOf(app)), version: version === undefined ? undefined : Number(version), address });
    },
  );
};

export default raffleAllowlistRoutes;
