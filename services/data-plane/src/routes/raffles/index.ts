import { DrawProofSchema, PageOf, PAGE_SIZES, PageQuerySchema, PublicRaffleItemSchema, PublicRaffleSchema } from '@raffle/contracts';
import { findPublicRaffleById, findRaffleIdVisibleToUser, pagePublicRaffles, type PublicRaffleKey } from '@raffle/db';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { cursorBinding, DomainError, loadJsonPage } from '@raffle/domain';
import { callerOf, configOf, cursorsOf } from '../../decorations.js';
import { readDrawProof } from '../draw-proof.js';
import { dataPlaneResponses, SlugParams } from '../responses.js';
import { sendRenderedJson } from '@raffle/service-kit';
import { createSharedResponseCache } from './shared-response-cache.js';

export const PublicRafflePageSchema = PageOf(Type.Ref(PublicRaffleItemSchema), 'PublicRafflePage');

const isPublicRaffleKey = (value: unknown): value is PublicRaffleKey =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as PublicRaffleKey).id === 'string' &&
  typeof (value as PublicRaffleKey).publishedAt === 'string' &&
  !Number.isNaN(Date.parse((value as PublicRaffleKey).publishedAt));

/** The public list is the same for every caller, so its cursor binds to the list alone. */
const PUBLIC_LIST_BINDING = cursorBinding('v1:public-raffles');

const raffleRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Read once: the codec is decorated before any route plugin registers.
  const cursors = cursorsOf(app);
  app.addSchema(PublicRafflePageSchema);
  const cache = createSharedResponseCache({ ttlMs: configOf(app).PUBLIC_RAFFLES_CACHE_TTL_MS, maxEntries: 1000 });

  app.get(
    '/raffles',
    {
      config: { access: { keyType: 'personal', scope: 'raffles:read' } },
      schema: {
        operationId: 'listPublicRaffles',
        tags: ['Personal'],
        summary: 'List published public raffles, most recently published first',
        querystring: PageQuerySchema(PAGE_SIZES.personalRaffles),
        response: dataPlaneResponses(Type.Ref(PublicRafflePageSchema)),
      },
    },
    async (request, reply) => {
      // The schema fills in the default limit, so each page has one key; a hit skips the cursor check too.
      const { limit, cursor } = request.query;
      const body = await cache.get(`${limit}|${cursor ?? ''}`, () =>
        loadJsonPage(
          { limit, cursor, cursors },
          { binding: PUBLIC_LIST_BINDING, rule: PAGE_SIZES.personalRaffles, isKey: isPublicRaffleKey },
          (after, size) => pagePublicRaffles(app.database.sql, { after, limit: size }),
          (row) => ({ publishedAt: row.publishedAt, id: row.id }),
        ),
      );
      return sendRenderedJson(reply, body);
    },
  );

  app.get(
    '/raffles/:slug',
    {
      config: { access: { keyType: 'personal', scope: 'raffles:read' } },
      schema: {
        operationId: 'getRaffleBySlug',
        'x-error-codes': ['RAFFLE_NOT_FOUND'],
        tags: ['Personal'],
        summary: 'One published raffle by slug (public, unlisted, or private to a workspace you belong to)',
        params: SlugParams,
        response: dataPlaneResponses(Type.Ref(PublicRaffleSchema)),
      },
    },
    async (request) => {
      const raffleId = await findRaffleIdVisibleToUser(app.database.sql, { slug: request.params.slug, userId: callerOf(request)!.userId });
      const raffle = raffleId ? await findPublicRaffleById(app.database.db, raffleId) : null;
      if (!raffle) throw new DomainError('RAFFLE_NOT_FOUND', `no raffle with slug "${request.params.slug}"`);
      return raffle;
    },
  );

  app.get(
    '/raffles/:slug/draw',
    {
      config: { access: { keyType: 'personal', scope: 'raffles:read' } },
      schema: {
        operationId: 'getDrawProof',
        'x-error-codes': ['RAFFLE_NOT_FOUND', 'DRAW_NOT_AVAILABLE'],
        tags: ['Personal'],
        summary: 'The proof of a drawn raffle: seed, eligible entries and winners, to recompute the draw',
        description:
          'Available once a `raffle`-mechanic raffle is drawn (404 `DRAW_NOT_AVAILABLE` before, and for other mechanics). ' +
          'Check it with `verifyDraw(proof)` from `@raffle/sdk`, or the `raffle-verify-draw` command: sha256(seed) must equal the commitment published with the raffle, ' +
          'the entries must hash to `entriesDigest`, and ranking them by the seed must give the winners.',
        params: SlugParams,
        response: dataPlaneResponses(Type.Ref(DrawProofSchema)),
      },
    },
    async (request, reply) => {
      const raffleId = await findRaffleIdVisibleToUser(app.database.sql, { slug: request.params.slug, userId: callerOf(request)!.userId });
      if (!raffleId) throw new DomainError('RAFFLE_NOT_FOUND', `no raffle with slug "${request.params.slug}"`);
      return sendRenderedJson(reply, await readDrawProof(app.database.sql, raffleId));
    },
  );
};

export default raffleRoutes;
