import { ProfileSchema } from '@raffle/contracts';
import { findProfileJson } from '@raffle/db';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiError } from '../../errors.js';
import { dataPlaneResponses } from '../responses.js';
import { sendRenderedJson } from '../send-json.js';

const meRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/api/v1/me',
    {
      config: { access: { keyType: 'personal', scope: 'profile:read' } },
      schema: {
        operationId: 'getProfile',
        'x-error-codes': ['NOT_FOUND'],
        tags: ['Personal'],
        summary: "The key owner's profile",
        response: dataPlaneResponses(Type.Ref(ProfileSchema)),
      },
    },
    async (request, reply) => {
      const json = await findProfileJson(app.database.sql, request.caller!.userId);
      if (!json) throw new ApiError('NOT_FOUND', 'the key owner no longer exists');
      return sendRenderedJson(reply, json);
    },
  );
};

export default meRoutes;
