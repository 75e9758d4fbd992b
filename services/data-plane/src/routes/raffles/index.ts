import { PageOf, PAGE_SIZES, PageQuerySchema, PublicRaffleItemSchema, PublicRaffleSchema } from '@raffle/contracts';
import { findPublicRaffleById, findRaffleIdVisibleToUser, pagePublicRaffles, type PublicRaffleKey } from '@raffle/db';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { createSharedResponseCache } from '../../domain/shared-response-cache.js';
import { ApiError } from '../../errors.js';
import { dataPlaneResponses, SlugParams } from '../responses.js';
import { renderKeysetPage } from '../keyset-page.js';
import { sendRenderedJson } from '../send-json.js';

export const PublicRafflePageSchema = PageOf(Type.Ref(PublicRaffleItemSchema), 'PublicRafflePage');

const isPublicRaffleKey = (value: unknown): value is PublicRaffleKey =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as PublicRaffleKey).id === 'string' &&
  typeof (value as PublicRaffleKey).publishedAt === 'string' &&
  !Number.isNaN(Date.parse((value as PublicRaffleKey).publishedAt));

/** The public list is the same for every caller, so its cursor binds to the route alone. */
const PUBLIC_LIST_BINDING = 'v1:public-raffles';

const raffleRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addSchema(PublicRafflePageSchema);
  const cache = createSharedResponseCache({ ttlMs: app.config.PUBLIC_RAFFLES_CACHE_TTL_MS, maxEntries: 1000 });

  app.get(
    '/api/v1/raffles',
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
      const { limit = PAGE_SIZES.personalRaffles.default, cursor } = request.query;
      const body = await cache.get(`${limit}|${cursor ?? ''}`, () =>
        renderKeysetPage(app, {
          binding: PUBLIC_LIST_BINDING,
          cursor,
          isKey: isPublicRaffleKey,
          load: (after) => pagePublicRaffles(app.database.sql, { after, limit }),
        }),
      );
      return sendRenderedJson(reply, body);
    },
  );

  app.get(
    '/api/v1/raffles/:slug',
    {
      config: { access: { keyType: 'personal', scope: 'raffles:read' } },
      schema: {
        operationId: 'getRaffleBySlug',
        tags: ['Personal'],
        summary: 'One published raffle by slug (public, unlisted, or private to a workspace you belong to)',
        params: SlugParams,
        response: dataPlaneResponses(Type.Ref(PublicRaffleSchema)),
      },
    },
    async (request) => {
      const raffleId = await findRaffleIdVisibleToUser(app.database.sql, { slug: request.params.slug, userId: request.caller!.userId });
      const raffle = raffleId ? await findPublicRaffleById(app.database.db, raffleId) : null;
      if (!raffle) throw new ApiError('RAFFLE_NOT_FOUND', `no raffle with slug "${request.params.slug}"`);
      return raffle;
    },
  );
};

export default raffleRoutes;
