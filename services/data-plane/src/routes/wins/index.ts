import { PageOf, PAGE_SIZES, PageQuerySchema, WinSchema } from '@raffle/contracts';
import { pageUserWins } from '@raffle/db';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { cursorBinding, isStringKey, loadJsonPage } from '@raffle/domain';
import { callerOf, cursorsOf, readRoutingOf } from '../../decorations.js';
import { dataPlaneReadResponses, RoutedReadHeaders } from '../responses.js';
import { sendRenderedJson } from '@raffle/service-kit';

export const WinPageSchema = PageOf(Type.Ref(WinSchema), 'WinPage');

const winRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Read once: the codec is decorated before any route plugin registers.
  const cursors = cursorsOf(app);
  const reads = readRoutingOf(app);
  app.addSchema(WinPageSchema);

  app.get(
    '/wins',
    {
      config: { access: { keyType: 'personal', scope: 'wins:read' } },
      schema: {
        operationId: 'listMyWins',
        tags: ['Personal'],
        summary: "The key owner's wins in every status, newest first",
        querystring: PageQuerySchema(PAGE_SIZES.personalWins),
        headers: RoutedReadHeaders,
        response: dataPlaneReadResponses(Type.Ref(WinPageSchema)),
      },
    },
    async (request, reply) => {
      const { userId } = callerOf(request)!;
      const body = await reads.read(request, reply, (database) =>
        loadJsonPage(
          { ...request.query, cursors },
          { binding: cursorBinding('v1:my-wins', userId), rule: PAGE_SIZES.personalWins, isKey: isStringKey },
          (after, limit) => pageUserWins(database.sql, { userId, before: after, limit }),
          (row) => row.id,
        ),
      );
      return sendRenderedJson(reply, body);
    },
  );
};

export default winRoutes;
