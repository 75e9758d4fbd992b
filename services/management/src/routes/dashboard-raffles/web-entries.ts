import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { SanitizedEntrySchema, type SanitizedEntry } from '@raffle/contracts';
import { enterRaffle, hashIp, userPrincipal, withdrawEntry } from '@raffle/domain';
import { Type } from '@sinclair/typebox';
import { beaconChainOf, chainReaderOf, configOf, dashboardUserIdOf, socialReaderOf } from '../../decorations.js';
import { managementResponses } from '../responses.js';
import { NoOptionsBody, RaffleSlugParams } from './params.js';

const BASE = '/raffles/:slug/entries';
const TAGS = ['Dashboard entries'];

/**
 * The signed-in user enters a raffle, or withdraws, through the dashboard (`source: web`). The
 * raffle is addressed by slug and must be visible to the user as on the personal routes; the
 * answer is the entry as its owner sees it (requirements reduced to type, label and passed).
 */
const webEntryRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    BASE,
    {
      schema: {
        operationId: 'enterRaffleAsMe',
        'x-error-codes': ['RAFFLE_NOT_FOUND', 'ALREADY_ENTERED', 'RAFFLE_NOT_OPEN', 'RAFFLE_FULL', 'REQUIREMENTS_NOT_MET'],
        tags: TAGS,
        summary: 'Enter a raffle as the signed-in user',
        description:
          'The management body has no `code`, so the message leads with it: 409 `ALREADY_ENTERED`, `RAFFLE_NOT_OPEN` or `RAFFLE_FULL`; 409 `REQUIREMENTS_NOT_MET` (the failed requirements named in the message, with what was found for on-chain ones, and what to do for Discord and X ones: link the account, or link it again); a 201 may carry status `pending` when the chain, Discord or X did not answer in time or asked to wait (evaluated later); 404 `RAFFLE_NOT_FOUND` for a raffle that does not exist or is not visible. A bodiless POST is accepted.',
        params: RaffleSlugParams,
        body: NoOptionsBody,
        response: managementResponses(201, Type.Ref(SanitizedEntrySchema)),
      },
      config: { optionalBody: true },
    },
    async (request, reply) => {
      const { entry } = await enterRaffle(app.database.db, {
        raffle: { slug: request.params.slug },
        actor: userPrincipal(dashboardUserIdOf(request)!),
        source: 'web',
        ipHash: hashIp(configOf(app).IP_HASH_SECRET, request.ip),
        beacon: beaconChainOf(app),
        chain: { reader: chainReaderOf(app), timeoutMs: configOf(app).CHAIN_ENTRY_TIMEOUT_MS },
        social: { reader: socialReaderOf(app) },
      });
      return reply.status(201).send(JSON.parse(entry.ownerJson) as SanitizedEntry);
    },
  );

  app.delete(
    `${BASE}/me`,
    {
      schema: {
        operationId: 'withdrawMyEntry',
        'x-error-codes': ['RAFFLE_NOT_FOUND', 'ENTRY_NOT_FOUND', 'ENTRY_NOT_WITHDRAWABLE'],
        tags: TAGS,
        summary: "Withdraw the signed-in user's entry while the raffle is open",
        description: "404 `ENTRY_NOT_FOUND` without an entry; 409 `ENTRY_NOT_WITHDRAWABLE` once the raffle is no longer open, the entry is no longer active, or it already won a spot (FCFS).",
        params: RaffleSlugParams,
        response: managementResponses(200, Type.Ref(SanitizedEntrySchema)),
      },
    },
    async (request) => {
      const entry = await withdrawEntry(app.database.db, { raffle: { slug: request.params.slug }, actor: userPrincipal(dashboardUserIdOf(request)!) });
      return JSON.parse(entry.ownerJson) as SanitizedEntry;
    },
  );
};

export default webEntryRoutes;
