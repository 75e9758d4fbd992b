import { findPubliclyVisibleRaffle } from '@raffle/db';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DomainError } from '@raffle/domain';
import { readRoutingOf } from '../../decorations.js';
import { readDrawProof } from '../draw-proof.js';
import { PROOF_CACHE_CONTROL, publicCacheOnSend, sendCacheableJson } from '../public-http-cache.js';
import { publicDrawProofSchema } from './schema.js';

/**
 * GET /public/v1/raffles/{slug}/draw: a drawn raffle's proof for anyone, with no key (issue 10,
 * decision 0013). The body is the keyed route's, byte for byte; what differs is who may ask
 * (public and unlisted raffles only), the per-IP `public` rate limit, and HTTP caching.
 */
const publicDrawRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const reads = readRoutingOf(app);
  app.get(
    '/raffles/:slug/draw',
    {
      schema: publicDrawProofSchema,
      // Caches and CDNs revalidate with HEAD, and the CORS preflight allows it: the document lists it too.
      config: { swagger: { exposeHeadRoute: true } },
      onSend: publicCacheOnSend,
    },
    async (request, reply) => {
      const { body } = await reads.read(request, reply, async (database) => {
        const raffle = await findPubliclyVisibleRaffle(database.sql, request.params.slug);
        // The keyed route's message for a slug it cannot see: a private raffle reads as a missing one.
        if (!raffle) throw new DomainError('RAFFLE_NOT_FOUND', `no raffle with slug "${request.params.slug}"`);
        return { raffle, body: await readDrawProof(database.sql, raffle.id) };
      });
      return sendCacheableJson(request, reply, body, PROOF_CACHE_CONTROL);
    },
  );
};

export default publicDrawRoutes;
