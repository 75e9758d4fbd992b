import { ErrorBodySchema, PlatformBeaconChainSchema } from '@raffle/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { QUICKNET } from '@raffle/sdk';
import { unavailableResponse } from '@raffle/service-kit';
import { Type, type TSchema } from '@sinclair/typebox';
import { beaconChainOf } from '../../decorations.js';

/** It changes only with the deployment's BEACON_CHAIN. */
const BEACON_CACHE_CONTROL = 'public, max-age=300';

/**
 * GET /public/v1/beacon: the beacon chain this platform pins, without a key. A verifier that
 * trusts this platform's beacon (the console's verify page, `fetchAndVerifyDraw` with
 * `trustPlatformBeacon`) trusts exactly this chain, never whatever chain a proof brings along.
 */
const publicBeaconRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const chain = beaconChainOf(app);
  const body = {
    chainHash: chain.chainHash,
    publicKey: chain.publicKey,
    period: chain.period,
    genesisTime: chain.genesisTime,
    scheme: chain.scheme,
    quicknet: chain.chainHash === QUICKNET.chainHash && chain.publicKey === QUICKNET.publicKey,
  };
  app.get(
    '/beacon',
    {
      schema: {
        operationId: 'getPlatformBeaconChain',
        tags: ['Public'],
        summary: "The beacon chain this platform's draws use, for verifiers, without an API key",
        description:
          "The drand chain whose rounds this platform mixes into its draws (`es-hmac-sha256-drand-v1`): drand's `quicknet` in production, " +
          "or a local beacon's own chain where the platform runs without the internet. A verifier trusts a proof's round only if it was " +
          'signed by a chain it trusts; adding this one means trusting this platform\'s beacon, which for `quicknet` is the League of ' +
          'Entropy and otherwise the operator. Rate-limited per client IP (the `public` policy); CORS as for the other public routes.',
        security: [],
        response: {
          200: { ...Type.Ref(PlatformBeaconChainSchema), description: 'The pinned chain.' },
          429: Type.Ref(ErrorBodySchema),
          500: { ...Type.Ref(ErrorBodySchema), description: 'An unexpected failure; nothing is leaked.' },
          503: unavailableResponse(Type.Ref(ErrorBodySchema)),
        } as Record<number, TSchema>,
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', BEACON_CACHE_CONTROL);
      return body;
    },
  );
};

export default publicBeaconRoutes;
