import { ProfileSchema } from '@raffle/contracts';
import { findProfileJson } from '@raffle/db';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DomainError } from '@raffle/domain';
import { callerOf, readRoutingOf } from '../../decorations.js';
import { dataPlaneReadResponses, RoutedReadHeaders } from '../responses.js';
import { sendRenderedJson } from '@raffle/service-kit';

const meRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const reads = readRoutingOf(app);
  app.get(
    '/me',
    {
      config: { access: { keyType: 'personal', scope: 'profile:read' } },
      schema: {
        operationId: 'getProfile',
        'x-error-codes': ['NOT_FOUND'],
        tags: ['Personal'],
        summary: "The key owner's profile",
        headers: RoutedReadHeaders,
        response: dataPlaneReadResponses(Type.Ref(ProfileSchema)),
      },
    },
    async (request, reply) => {
      const json = await reads.read(request, reply, (database) => findProfileJson(database.sql, callerOf(request)!.userId));
      if (!json) throw new DomainError('NOT_FOUND', 'the key owner no longer exists');
      return sendRenderedJson(reply, json);
    },
  );
};

export default meRoutes;
