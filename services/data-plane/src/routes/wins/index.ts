import { PageOf, PAGE_SIZES, PageQuerySchema, WinSchema } from '@raffle/contracts';
import { pageUserWins } from '@raffle/db';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { isString } from '../../domain/cursor.js';
import { dataPlaneResponses } from '../responses.js';
import { renderKeysetPage } from '../keyset-page.js';
import { sendRenderedJson } from '../send-json.js';

export const WinPageSchema = PageOf(Type.Ref(WinSchema), 'WinPage');

const winRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addSchema(WinPageSchema);

  app.get(
    '/api/v1/wins',
    {
      config: { access: { keyType: 'personal', scope: 'wins:read' } },
      schema: {
        operationId: 'listMyWins',
        tags: ['Personal'],
        summary: "The key owner's wins in every status, newest first",
        querystring: PageQuerySchema(PAGE_SIZES.personalWins),
        response: dataPlaneResponses(Type.Ref(WinPageSchema)),
      },
    },
    async (request, reply) => {
      const { userId } = request.caller!;
      const { limit = PAGE_SIZES.personalWins.default, cursor } = request.query;
      const body = await renderKeysetPage(app, {
        binding: `v1:my-wins:${userId}`,
        cursor,
        isKey: isString,
        load: (before) => pageUserWins(app.database.sql, { userId, before, limit }),
      });
      return sendRenderedJson(reply, body);
    },
  );
};

export default winRoutes;
