import { AllowlistLeafPageSchema, AllowlistLeafQuerySchema, AllowlistSchema } from '@raffle/contracts';
import { findAllowlistRaffle, type AllowlistRaffleRow, type Database } from '@raffle/db';
import { allowlistLeafPage, allowlistView, DomainError } from '@raffle/domain';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { cursorsOf, readRoutingOf } from '../../decorations.js';
import { dataPlaneReadResponses, RoutedReadHeaders, WorkspaceRaffleParams } from '../responses.js';
import { createRaffleOwnership } from '../workspace-raffles/raffle-ownership.js';

/** A raffle of the workspace (ownership checked by the caller), as its allowlist reads it. */
async function workspaceAllowlistRaffle(database: Database, raffleId: string): Promise<AllowlistRaffleRow> {
  const raffle = await findAllowlistRaffle(database.db, raffleId);
  if (!raffle) throw new DomainError('RAFFLE_NOT_FOUND', `no raffle ${raffleId} in this workspace`);
  return raffle;
}

/**
 * A workspace's view of its raffles' allowlists (issue 35): the root, versions and settings, and
 * every leaf with its proof, to set the root in a mint contract and hand winners their proofs.
 * They are the winners' list as a tree, so they take the scope that reads winners.
 */
const workspaceAllowlistRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const cursors = cursorsOf(app);
  const reads = readRoutingOf(app);
  const ownership = createRaffleOwnership(app.database.sql);

  app.get(
    '/workspaces/:workspaceId/raffles/:raffleId/allowlist',
    {
      config: { access: { keyType: 'workspace', scope: 'winners:read' } },
      schema: {
        operationId: 'getWorkspaceRaffleAllowlist',
        'x-error-codes': ['RAFFLE_NOT_FOUND'],
        tags: ['Workspace'],
        summary: "A raffle's allowlist: its status, current Merkle root and every published version",
        description:
          'Any raffle of the workspace: `status` is `not_applicable` unless its allocation is `allowlist_gtd` or `allowlist_fcfs`, `awaiting_finalize` before it is finalized, ' +
          '`awaiting_wallets` until its `walletDeadline`, `building` while a version is built, then `published`. Set `current.root` in the mint contract; ' +
          'a new version follows each change of the finalized winners (the `raffle.allowlist_published` event).',
        params: WorkspaceRaffleParams,
        headers: RoutedReadHeaders,
        response: dataPlaneReadResponses(Type.Ref(AllowlistSchema)),
      },
    },
    async (request, reply) => {
      const { workspaceId, raffleId } = request.params;
      await ownership.require(workspaceId, raffleId);
      return reads.read(request, reply, async (database) => allowlistView(database.db, await workspaceAllowlistRaffle(database, raffleId), new Date()));
    },
  );

  app.get(
    '/workspaces/:workspaceId/raffles/:raffleId/allowlist/leaves',
    {
      config: { access: { keyType: 'workspace', scope: 'winners:read' } },
      schema: {
        operationId: 'listWorkspaceAllowlistLeaves',
        'x-error-codes': ['RAFFLE_NOT_FOUND', 'NOT_FOUND', 'ALLOWLIST_NOT_PUBLISHED'],
        tags: ['Workspace'],
        summary: "A version's leaves, each with its Merkle proof, in address order",
        description:
          'The latest version unless `version` names another (404 `NOT_FOUND` for one it does not have); `address` narrows the page to that wallet\'s leaf. ' +
          'Every proof verifies against the page\'s `root`. 409 `ALLOWLIST_NOT_PUBLISHED` while no version is published.',
        params: WorkspaceRaffleParams,
        querystring: AllowlistLeafQuerySchema,
        headers: RoutedReadHeaders,
        response: dataPlaneReadResponses(Type.Ref(AllowlistLeafPageSchema)),
      },
    },
    async (request, reply) => {
      const { workspaceId, raffleId } = request.params;
      await ownership.require(workspaceId, raffleId);
      return reads.read(request, reply, async (database) =>
        allowlistLeafPage(database.db, await workspaceAllowlistRaffle(database, raffleId), { ...request.query, cursors }),
      );
    },
  );
};

export default workspaceAllowlistRoutes;
