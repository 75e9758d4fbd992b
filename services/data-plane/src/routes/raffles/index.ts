import { DrawProofSchema, PageOf, PAGE_SIZES, PageQuerySchema, PublicRaffleItemSchema, PublicRaffleSchema } from '@raffle/contracts';
import { findPublicRaffleById, findRaffleIdVisibleToUser, pagePublicRaffles, type PublicRaffleKey } from '@raffle/db';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { cursorBinding, DomainError, loadJsonPage } from '@raffle/domain';
import { callerOf, configOf, cursorsOf, readRoutingOf } from '../../decorations.js';
import { readDrawProof } from '../draw-proof.js';
import { dataPlaneReadResponses, RoutedReadHeaders, SlugParams } from '../responses.js';
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
  const reads = readRoutingOf(app);
  app.addSchema(PublicRafflePageSchema);
  const cache = createSharedResponseCache<{ json: string; freshAsOf: number }>({ ttlMs: configOf(app).PUBLIC_RAFFLES_CACHE_TTL_MS, maxEntries: 1000 });

  app.get(
    '/raffles',
    {
      config: { access: { keyType: 'personal', scope: 'raffles:read' } },
      schema: {
        operationId: 'listPublicRaffles',
        tags: ['Personal'],
        summary: 'List published public raffles, most recently published first',
        querystring: PageQuerySchema(PAGE_SIZES.personalRaffles),
        headers: RoutedReadHeaders,
        response: dataPlaneReadResponses(Type.Ref(PublicRafflePageSchema)),
      },
    },
    async (request, reply) => {
      // The schema fills in the default limit, so each page has one key; a hit skips the cursor check too.
      const { limit, cursor } = request.query;
      // Shared by every caller for PUBLIC_RAFFLES_CACHE_TTL_MS: its staleness counts from when its data was read.
      const page = await cache.get(`${limit}|${cursor ?? ''}`, async () => {
        const { value, freshAsOf } = await reads.readShared(request, (database) =>
          loadJsonPage(
            { limit, cursor, cursors },
            { binding: PUBLIC_LIST_BINDING, rule: PAGE_SIZES.personalRaffles, isKey: isPublicRaffleKey },
            (after, size) => pagePublicRaffles(database.sql, { after, limit: size }),
            (row) => ({ publishedAt: row.publishedAt, id: row.id }),
          ),
        );
        return { json: value, freshAsOf };
      });
      reads.sayStaleness(reply, page.freshAsOf);
      return sendRenderedJson(reply, page.json);
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
        headers: RoutedReadHeaders,
        response: dataPlaneReadResponses(Type.Ref(PublicRaffleSchema)),
      },
    },
    async (request, reply) => {
      const raffle = await reads.read(request, reply, async (database) => {
        const raffleId = await findRaffleIdVisibleToUser(database.sql, { slug: request.params.slug, userId: callerOf(request)!.userId });
        return raffleId ? findPublicRaffleById(database.db, raffleId) : null;
      });
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
        headers: RoutedReadHeaders,
        response: dataPlaneReadResponses(Type.Ref(DrawProofSchema)),
      },
    },
    async (request, reply) => {
      const proof = await reads.read(request, reply, async (database) => {
        const raffleId = await findRaffleIdVisibleToUser(database.sql, { slug: request.params.slug, userId: callerOf(request)!.userId });
        if (!raffleId) throw new DomainError('RAFFLE_NOT_FOUND', `no raffle with slug "${request.params.slug}"`);
        return readDrawProof(database.sql, raffleId);
      });
      return sendRenderedJson(reply, proof);
    },
  );
};

export default raffleRoutes;
