import { AllowlistProofSchema, AllowlistWalletSchema, NameAllowlistWalletBodySchema } from '@raffle/contracts';
import { allowlistProofOf, nameAllowlistWallet } from '@raffle/domain';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerOf, readRoutingOf } from '../../decorations.js';
import { allowlistRaffleVisibleToUser } from '../allowlist-raffles.js';
import { dataPlaneReadResponses, dataPlaneWriteResponses, RoutedReadHeaders, SlugParams } from '../responses.js';

/**
 * A winner's side of a raffle's allowlist (issue 35): their own leaf and proof, for a mint, and
 * the wallet the leaf is for, named before the raffle's wallet deadline. Reading the leaf is
 * reading one's wins (`wins:read`); naming the wallet acts on one's entry (`entries:write`).
 */
const allowlistRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const reads = readRoutingOf(app);

  app.get(
    '/raffles/:slug/allowlist/proof',
    {
      config: { access: { keyType: 'personal', scope: 'wins:read' } },
      schema: {
        operationId: 'getMyAllowlistProof',
        'x-error-codes': ['RAFFLE_NOT_FOUND', 'NOT_ON_ALLOWLIST', 'ALLOWLIST_NOT_PUBLISHED'],
        tags: ['Personal'],
        summary: "The key owner's leaf of a raffle's allowlist, with its Merkle proof: what a mint call takes",
        description:
          'For a finalized winner of an `allowlist_gtd` or `allowlist_fcfs` raffle: the wallet, the quantity and the proof of the current version, ' +
          "read from the stored tree. Pass `proof` and `quantity` to the mint contract (`MerkleProof.verify(proof, root, leaf)`); check it offline with `verifyAllowlistProof` from `@raffle/sdk`. " +
          '409 `ALLOWLIST_NOT_PUBLISHED` while no version is published (before finalize, until the wallet deadline, while the first version builds); ' +
          '404 `NOT_ON_ALLOWLIST` for anyone who holds no leaf of it (not a finalized winner, no wallet on the raffle\'s chain, or not an allowlist raffle).',
        params: SlugParams,
        headers: RoutedReadHeaders,
        response: dataPlaneReadResponses(Type.Ref(AllowlistProofSchema)),
      },
    },
    async (request, reply) => {
      const { userId } = callerOf(request)!;
      return reads.read(request, reply, async (database) =>
        allowlistProofOf(database.db, await allowlistRaffleVisibleToUser(database, request.params.slug, userId), userId),
      );
    },
  );

  app.put(
    '/raffles/:slug/allowlist/wallet',
    {
      config: { access: { keyType: 'personal', scope: 'entries:write' } },
      schema: {
        operationId: 'nameMyAllowlistWallet',
        'x-error-codes': ['RAFFLE_NOT_FOUND', 'WIN_NOT_FOUND', 'WALLET_NAMING_CLOSED'],
        tags: ['Personal'],
        summary: "Name the wallet the key owner's allowlist leaf is for, before the raffle's wallet deadline",
        description:
          "For a winner (selected or finalized) of an allowlist raffle that sets `walletDeadline`: one of the owner's verified wallets (linked by signature) on the raffle's chain, " +
          'else 400 `VALIDATION_FAILED`. The allowlist is built after the deadline, so no published version changes; naming again replaces the wallet. ' +
          "409 `WALLET_NAMING_CLOSED` once the deadline passed, or when the raffle sets none (its leaves use each entry's wallet) or is not an allowlist raffle; 404 `WIN_NOT_FOUND` without a live win.",
        params: SlugParams,
        body: Type.Ref(NameAllowlistWalletBodySchema),
        response: dataPlaneWriteResponses(200, Type.Ref(AllowlistWalletSchema)),
      },
    },
    async (request, reply) => {
      const { userId } = callerOf(request)!;
      const raffle = await allowlistRaffleVisibleToUser(app.database, request.params.slug, userId);
      const named = await nameAllowlistWallet(app.database.db, { raffle, userId, address: request.body.address, now: new Date() });
      await reads.wrote(request, reply);
      return named;
    },
  );
};

export default allowlistRoutes;
