import { PageOf, PAGE_SIZES, PageQuerySchema, SanitizedEntrySchema } from '@raffle/contracts';
import { findOwnerEntryJson, findRaffleIdVisibleToUser, pageUserEntries } from '@raffle/db';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { isString } from '../../domain/cursor.js';
import { ApiError } from '../../errors.js';
import { dataPlaneResponses, SlugParams } from '../responses.js';
import { renderKeysetPage } from '../keyset-page.js';
import { sendRenderedJson } from '../send-json.js';

export const SanitizedEntryPageSchema = PageOf(Type.Ref(SanitizedEntrySchema), 'SanitizedEntryPage');

const entryRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addSchema(SanitizedEntryPageSchema);

  app.get(
    '/api/v1/entries',
    {
      config: { access: { keyType: 'personal', scope: 'entries:read' } },
      schema: {
        operationId: 'listMyEntries',
        tags: ['Personal'],
        summary: "The key owner's entries, newest first",
        querystring: PageQuerySchema(PAGE_SIZES.personalEntries),
        response: dataPlaneResponses(Type.Ref(SanitizedEntryPageSchema)),
      },
    },
    async (request, reply) => {
      const { userId } = request.caller!;
      const { limit = PAGE_SIZES.personalEntries.default, cursor } = request.query;
      const body = await renderKeysetPage(app, {
        binding: `v1:my-entries:${userId}`,
        cursor,
        isKey: isString,
        load: (before) => pageUserEntries(app.database.sql, { userId, before, limit }),
      });
      return sendRenderedJson(reply, body);
    },
  );

  app.get(
    '/api/v1/raffles/:slug/entries/me',
    {
      config: { access: { keyType: 'personal', scope: 'entries:read' } },
      schema: {
        operationId: 'getMyEntry',
        tags: ['Personal'],
        summary: "The key owner's entry in a raffle",
        params: SlugParams,
        response: dataPlaneResponses(Type.Ref(SanitizedEntrySchema)),
      },
    },
    async (request, reply) => {
      const { userId } = request.caller!;
      const raffleId = await findRaffleIdVisibleToUser(app.database.sql, { slug: request.params.slug, userId });
      if (!raffleId) throw new ApiError('RAFFLE_NOT_FOUND', `no raffle with slug "${request.params.slug}"`);
      const json = await findOwnerEntryJson(app.database.sql, { raffleId, userId });
      if (!json) throw new ApiError('ENTRY_NOT_FOUND', 'you have not entered this raffle');
      return sendRenderedJson(reply, json);
    },
  );
};

export default entryRoutes;
