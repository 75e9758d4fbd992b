import { findPublicDrawCommitment } from '@raffle/db';
import { DrawCommitmentSchema, ErrorBodySchema } from '@raffle/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DomainError } from '@raffle/domain';
import { unavailableResponse } from '@raffle/service-kit';
import { Type, type TSchema } from '@sinclair/typebox';
import { readRoutingOf } from '../../decorations.js';
import { RoutedReadHeaders, SlugParams } from '../responses.js';

/** The round appears at the close: a cache may keep the record only briefly. */
const COMMITMENT_CACHE_CONTROL = 'public, max-age=60';

/**
 * GET /public/v1/raffles/{slug}/commitment (issue 34): what a raffle said about its draw before it
 * was drawn, without a key, so every verifier can hold the proof against it: the proof's algorithm
 * must be the one bound at publish, its commitment this one, its round this one.
 */
const publicCommitmentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const reads = readRoutingOf(app);
  app.get(
    '/raffles/:slug/commitment',
    {
      schema: {
        operationId: 'getPublicDrawCommitment',
        tags: ['Public'],
        summary: "A published raffle's draw commitment, the algorithm it is for and its beacon round, without an API key",
        description:
          'What the raffle made public about its draw before drawing: `drawCommitment` and `drawAlgorithm` from publish, `closedAt`, `beaconRound` and ' +
          '`beaconChainHash` from the close. Verifiers (`fetchAndVerifyDraw`, `raffle-verify-draw`, the console\'s verify page) refuse a proof whose ' +
          'algorithm, commitment or round differ. It is served by the same operator as the proof: a copy kept from earlier (this answer fetched at ' +
          'publish and at the close, or the `raffle.closed` webhook\'s `beaconRound`) is the stronger reference. Public and unlisted raffles from publish on; 404 ' +
          '`RAFFLE_NOT_FOUND` otherwise. Rate-limited per client IP (the `public` policy); CORS as for the other public routes.',
        security: [],
        'x-error-codes': ['RAFFLE_NOT_FOUND'],
        params: SlugParams,
        headers: RoutedReadHeaders,
        response: {
          200: { ...Type.Ref(DrawCommitmentSchema), description: 'The commitment, its algorithm and, once closed, its beacon round.' },
          400: { ...Type.Ref(ErrorBodySchema), description: 'The slug is not valid (empty, longer than 128 characters, or with control characters).' },
          404: { ...Type.Ref(ErrorBodySchema), description: '`RAFFLE_NOT_FOUND`: no public or unlisted published raffle has this slug.' },
          429: Type.Ref(ErrorBodySchema),
          500: { ...Type.Ref(ErrorBodySchema), description: 'An unexpected failure; nothing is leaked.' },
          503: unavailableResponse(Type.Ref(ErrorBodySchema)),
        } as Record<number, TSchema>,
      },
    },
    async (request, reply) => {
      const commitment = await reads.read(request, reply, (database) => findPublicDrawCommitment(database.sql, request.params.slug));
      if (!commitment) throw new DomainError('RAFFLE_NOT_FOUND', `no raffle with slug "${request.params.slug}"`);
      reply.header('cache-control', COMMITMENT_CACHE_CONTROL);
      return commitment;
    },
  );
};

export default publicCommitmentRoutes;
