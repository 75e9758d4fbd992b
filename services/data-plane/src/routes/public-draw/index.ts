import { findPubliclyVisibleRaffle } from '@raffle/db';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DomainError } from '@raffle/domain';
import { readRoutingOf } from '../../decorations.js';
import { readDrawProof } from '../draw-proof.js';
import { sendRenderedJson } from '@raffle/service-kit';
import { ERROR_CACHE_CONTROL, ifNoneMatchHits, PROOF_CACHE_CONTROL, strongEtagOf } from './http-cache.js';
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
      onSend: async (_request, reply, payload) => {
        if (reply.statusCode >= 400) reply.header('cache-control', ERROR_CACHE_CONTROL);
        // A 304 describes the stored representation; it has none of its own (RFC 9110 §15.4.5).
        if (reply.statusCode === 304) reply.removeHeader('content-type');
        return payload;
      },
    },
    async (request, reply) => {
      const { body } = await reads.read(request, reply, async (database) => {
        const raffle = await findPubliclyVisibleRaffle(database.sql, request.params.slug);
        // The keyed route's message for a slug it cannot see: a private raffle reads as a missing one.
        if (!raffle) throw new DomainError('RAFFLE_NOT_FOUND', `no raffle with slug "${request.params.slug}"`);
        return { raffle, body: await readDrawProof(database.sql, raffle.id) };
      });
      const etag = strongEtagOf(body);
      reply.header('etag', etag).header('cache-control', PROOF_CACHE_CONTROL);
      // send() with no payload, not send(null): the 304 schema would serialize null to `null`, and
      // its `content-length: 4` makes a Node fetch keep the connection (and the script) for ~74 s.
      if (ifNoneMatchHits(request.headers['if-none-match'], etag)) return reply.code(304).send();
      return sendRenderedJson(reply, body);
    },
  );
};

export default publicDrawRoutes;
